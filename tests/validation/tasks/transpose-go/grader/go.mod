module example.com/matrix

go 1.19
