// Package app holds the HTTP handlers and background jobs.
package app

import "example.com/shop/core"

// HandleCreate creates the record a request describes.
func HandleCreate(store *core.Store, record core.Record) string {
	return store.Save(record)
}

// HandleLookup returns the record a request names.
func HandleLookup(store *core.Store, name string) (core.Record, bool) {
	return store.Load(core.FormatKey(name))
}
