package app

import (
	"testing"

	"example.com/shop/core"
)

func TestHandleCreate(t *testing.T) {
	store := core.NewStore()
	if HandleCreate(store, core.Record{Name: " A "}) != core.FormatKey("a") {
		t.Fatal("key not normalized")
	}
	store.Save(core.Record{Name: "b"})
}
