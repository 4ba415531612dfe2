package net

// Decode decodes a wire payload into a record name.
func Decode(data []byte) string {
	return string(data)
}
