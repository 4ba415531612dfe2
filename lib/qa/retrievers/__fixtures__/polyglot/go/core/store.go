package core

// Record is what the store keeps.
type Record struct {
	Name string
}

// Store keeps records by their normalized key.
type Store struct {
	rows map[string]Record
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{rows: map[string]Record{}}
}

// Save persists a record in the store under its normalized key.
func (s *Store) Save(record Record) string {
	key := FormatKey(record.Name)
	s.rows[key] = record
	return key
}

// Load looks a record up by name.
func (s *Store) Load(name string) (Record, bool) {
	r, ok := s.rows[FormatKey(name)]
	return r, ok
}
