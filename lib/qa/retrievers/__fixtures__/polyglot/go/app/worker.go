package app

import "example.com/shop/core"

// RunBatch saves every record of a batch.
func RunBatch(records []core.Record) int {
	store := core.NewStore()
	for _, record := range records {
		store.Save(record)
	}
	return len(records)
}
