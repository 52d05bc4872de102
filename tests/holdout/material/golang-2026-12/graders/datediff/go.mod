module example.com/datediff

go 1.19
