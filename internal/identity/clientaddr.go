package identity

import (
	"net/http"

	"portalwright/internal/httpx"
)

// ClientInfoOf is who is asking: the client address the router worked out
// (httpx.ClientAddr, which believes X-Forwarded-For only from --trusted-proxies) and the
// user agent.
func ClientInfoOf(r *http.Request) ClientInfo {
	return ClientInfo{Addr: httpx.ClientAddr(r), UserAgent: r.UserAgent()}
}

func (h *Handler) clientInfo(r *http.Request) ClientInfo { return ClientInfoOf(r) }
