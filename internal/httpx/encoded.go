package httpx

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
)

// EncodedJSON is an answer encoded once and sent to many callers (a large list that only
// changes now and then): the JSON, and its gzip form made on first use.
type EncodedJSON struct {
	plain []byte
	once  sync.Once
	gz    []byte
}

// gzipMin: smaller answers are sent as they are.
const gzipMin = 8 << 10

// EncodeJSON encodes v as JSON writes it.
func EncodeJSON(v any) (*EncodedJSON, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &EncodedJSON{plain: append(data, '\n')}, nil
}

// Bytes is the JSON (read only).
func (e *EncodedJSON) Bytes() []byte { return e.plain }

func (e *EncodedJSON) gzipped() []byte {
	e.once.Do(func() {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
		_, _ = zw.Write(e.plain)
		if zw.Close() == nil {
			e.gz = b.Bytes()
		}
	})
	return e.gz
}

// WriteEncoded sends an EncodedJSON with the headers JSON sets, gzipped when the client
// accepts it and the answer is large.
func WriteEncoded(w http.ResponseWriter, r *http.Request, status int, e *EncodedJSON) error {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	data := e.plain
	if len(data) >= gzipMin {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			if gz := e.gzipped(); gz != nil {
				h.Set("Content-Encoding", "gzip")
				data = gz
			}
		}
	}
	w.WriteHeader(status)
	_, _ = w.Write(data)
	return nil
}

func acceptsGzip(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(v, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			if strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.ReplaceAll(strings.TrimSpace(params), " ", "") != "q=0" {
				return true
			}
		}
	}
	return false
}
