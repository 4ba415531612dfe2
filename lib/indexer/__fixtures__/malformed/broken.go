package main

import "fmt"

func good() { fmt.Println("ok") }

func broken(a int {
	return a +
}

func (s *Server) Survivor() { s.count = compute() }
