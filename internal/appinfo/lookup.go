package appinfo

import (
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"portalwright/internal/apperr"
	"portalwright/internal/httpx"

	"github.com/go-chi/chi/v5"
)

// KeyValue is one entry of an enumeration (spec 3 §3: each a list of key and value).
type KeyValue struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Enums are the enumerations GET /lookup/{enum} serves: the key is what the API stores and
// sends, the value what the UI shows. The spec names them but shows no values; these are the
// product's (docs/decisions.md, "Lookup enumerations").
var Enums = map[string][]KeyValue{
	"PortalType": {{"CREW", "Crew"}, {"PASSENGER", "Passenger"}},
	"ScopeType":  {{"FULL", "Full"}, {"MICROSITE", "Microsite"}, {"CAPTIVE", "Captive"}},
	"PreviewType": {
		{"PORTAL_LOCKED", "Locked snapshot"}, {"PORTAL_LIVE", "Live"}, {"LOADABLE", "Loadable"},
	},
	"PayloadType": {
		{"PORTAL", "Portal"}, {"MICROSITE", "Microsite"}, {"CAPTIVE", "Captive portal"}, {"MEDIA", "Media"},
	},
}

// MaxInfoMessage bounds the operator's info message (bytes).
const MaxInfoMessage = 4096

// InfoMessage is the answer of GET /config/infoMessage.
type InfoMessage struct {
	// Message is the operator's notice for every user ("" when none is set).
	Message string `json:"message"`
}

// LookupHandler serves the enumerations and the operator's info message.
type LookupHandler struct {
	infoFile string
}

// NewLookupHandler reads the info message from <dataDir>/web-config/info-message.txt (beside
// the probe configuration; see docs/operations.md), on every call, so an edit shows at once.
func NewLookupHandler(dataDir string) *LookupHandler {
	return &LookupHandler{infoFile: filepath.Join(dataDir, "web-config", "info-message.txt")}
}

func (h *LookupHandler) Routes() []httpx.Route {
	return []httpx.Route{
		{Method: http.MethodGet, Pattern: "/config/infoMessage", Access: httpx.Public, Handler: h.infoMessage, Out: InfoMessage{}},
		{Method: http.MethodGet, Pattern: "/lookup/{enum}", Access: httpx.Authenticated, Handler: h.lookup, Out: []KeyValue{}},
	}
}

func (h *LookupHandler) lookup(w http.ResponseWriter, r *http.Request) error {
	name := chi.URLParam(r, "enum")
	values, ok := Enums[name]
	if !ok {
		return apperr.NotFound("UNKNOWN_ENUM", "There is no enumeration named '"+name+"'. Known: PortalType, ScopeType, PreviewType, PayloadType.")
	}
	return httpx.OK(w, values)
}

func (h *LookupHandler) infoMessage(w http.ResponseWriter, _ *http.Request) error {
	msg, err := readInfo(h.infoFile)
	if err != nil {
		return err
	}
	return httpx.OK(w, InfoMessage{Message: msg})
}

func readInfo(path string) (string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxInfoMessage))
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(data)), nil
}
