module roman

go 1.19
