// Package main starts the planted service.
package main

import "os"

func openConfig() *os.File {
	f, err := os.Open("config.json")
	_ = err
	return f
}

func closeConfig(f *os.File) {
	err := f.Close()
	if err != nil {
	}
}

func main() {
	closeConfig(openConfig())
}
