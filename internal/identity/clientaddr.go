package identity

import (
	"errors"
	"net/http"
	"strconv"

	"portalwright/internal/httpx"
)

// ClientInfoOf is who is asking: the client address the router worked out
// (httpx.ClientAddr, which believes X-Forwarded-For only from --trusted-proxies) and the
// user agent.
func ClientInfoOf(r *http.Request) ClientInfo {
	return ClientInfo{Addr: httpx.ClientAddr(r), UserAgent: r.UserAgent()}
}

func (h *Handler) clientInfo(r *http.Request) ClientInfo { return ClientInfoOf(r) }

// writeError answers an error; a 429 also carries Retry-After.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	var e *httpx.Error
	if errors.As(err, &e) && e.Status == http.StatusTooManyRequests {
		if d, ok := e.Data.(map[string]int); ok && d["retryAfter"] > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(d["retryAfter"]))
		}
	}
	httpx.WriteError(w, r, err)
}
