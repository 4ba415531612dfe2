package codec

import (
	"encoding/json"
	"io"
)

// JSONEncoder writes one JSON object per line.
type JSONEncoder struct {
	Indent bool
}

func (j *JSONEncoder) Encode(w io.Writer, record map[string]string) error {
	data, err := json.Marshal(record)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

func (j *JSONEncoder) Flush(w io.Writer) error {
	return nil
}
