package server

import (
	"context"
	"errors"
	"fmt"
	stdlog "log"
	"sync"
)

var (
	mu       sync.Mutex
	requests int
)

var registry = map[string]*Server{}

// ErrClosed is returned after Close.
var ErrClosed = errors.New("server closed")

// Handler handles one request.
type Handler interface {
	fmt.Stringer
	Handle(ctx context.Context, req *Request) error
}

// Server serves requests.
// It is safe for concurrent use.
type Server struct {
	*Base
	name    string
	handler Handler
	closed  bool
}

type (
	// Request is one unit of work.
	Request struct{ ID string }
	ID      string
)

// NewServer builds a server and registers it.
func NewServer(name string, h Handler) *Server {
	s := &Server{name: name, handler: h}
	registry[name] = s
	return s
}

// Start runs the handler once.
func (s *Server) Start(ctx context.Context, req *Request) error {
	if s.closed {
		return fmt.Errorf("server %s: %w", s.name, ErrClosed)
	}
	mu.Lock()
	requests++
	mu.Unlock()
	go func() {
		s.handler.Handle(ctx, req)
	}()
	return nil
}

func (s Server) Close() {
	s.closed = true
	if s.handler == nil {
		stdlog.Fatalf("close %s without handler", s.name)
	}
}

func helper(requests int) int {
	requests++
	panic("unreachable: " + fmt.Sprint(requests))
}
