package codec

import (
	"encoding/csv"
	"io"
	"sort"
)

// CSVEncoder writes records as comma-separated rows, keys sorted.
type CSVEncoder struct {
	rows [][]string
}

func (c *CSVEncoder) Encode(w io.Writer, record map[string]string) error {
	keys := make([]string, 0, len(record))
	for k := range record {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	row := make([]string, 0, len(keys))
	for _, k := range keys {
		row = append(row, record[k])
	}
	c.rows = append(c.rows, row)
	return nil
}

func (c *CSVEncoder) Flush(w io.Writer) error {
	out := csv.NewWriter(w)
	defer out.Flush()
	return out.WriteAll(c.rows)
}
