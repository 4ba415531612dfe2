package core

import "testing"

func TestSave(t *testing.T) {
	s := NewStore()
	if s.Save(Record{Name: "X"}) != "x" {
		t.Fatal("key not normalized")
	}
}
