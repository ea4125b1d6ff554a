package app

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// serveMetrics serves /metrics, and nothing else, on the operator's own address
// (--metrics-addr): a port that a firewall or the orchestrator keeps off the public network.
// The returned function stops it.
func (a *App) serveMetrics(addr string) (func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on metrics-addr %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", a.HTTP.Metrics)
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(a.Log.Handler(), slog.LevelWarn),
	}
	go func() { _ = srv.Serve(ln) }()
	a.Log.Info("metrics are served on their own address", "addr", ln.Addr().String())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}, nil
}
