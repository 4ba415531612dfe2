// Package core holds the record store and the helpers it shares.
package core

import "strings"

// FormatKey normalizes a record name into the key it is stored under.
func FormatKey(name string) string {
	return strings.ToLower(strings.TrimSpace(name))
}
