// Package main starts the clean service.
package main

import (
	"log"
	"os"
)

func openConfig() *os.File {
	f, err := os.Open("config.json")
	if err != nil {
		log.Fatal(err)
	}
	return f
}

func main() {
	f := openConfig()
	defer f.Close()
}
