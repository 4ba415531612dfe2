package codec

import "io"

// Encoder writes records in one wire format; implementations satisfy it by their methods.
type Encoder interface {
	// Encode writes one record.
	Encode(w io.Writer, record map[string]string) error
	Flush(w io.Writer) error
}

// Pipe hands every record to the encoder it was built with.
func Pipe(e Encoder, w io.Writer, records []map[string]string) error {
	for _, r := range records {
		if err := e.Encode(w, r); err != nil {
			return err
		}
	}
	return e.Flush(w)
}
