// Package net fetches remote records.
package net

import (
	"io"
	"net/http"

	"example.com/shop/core"
)

// Fetch fetches one remote record by name.
func Fetch(base string, name string) (string, error) {
	resp, err := http.Get(base + "/" + core.FormatKey(name))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return Decode(data), err
}
