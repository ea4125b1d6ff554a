package asset

import (
	"io"
	"slices"
	"sort"

	"portalwright/internal/filetype"
)

// TotalLimit is the most one upload request may carry, over all its files (spec 2 §9: 399mb).
const TotalLimit = 419430400

// Limits are the per-type upload limits in bytes (the operator's configuration).
type Limits struct {
	Image, Video, PDF, Default int64
}

// DefaultLimits are the limits without configuration.
var DefaultLimits = Limits{Image: 20 << 20, Video: 200 << 20, PDF: 50 << 20, Default: 20 << 20}

// The extensions of each upload limit, and the binary files an upload may have besides.
var (
	imageExts = []string{"png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "tif", "tiff"}
	videoExts = []string{"mp4", "webm", "ogv", "mov", "m4v"}
	pdfExts   = []string{"pdf"}
	otherExts = []string{"ico", "woff", "woff2", "ttf", "otf", "eot", "mp3", "wav", "ogg",
		"doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp"}
)

// AllowedExtensions lists every extension a new file (an upload, a save, a rename) may have,
// sorted: the types above and every text type of the file type table (filetype).
func AllowedExtensions() []string {
	seen := map[string]bool{}
	var all []string
	for _, l := range [][]string{imageExts, videoExts, pdfExts, otherExts, filetype.TextExtensions()} {
		for _, e := range l {
			if !seen[e] {
				seen[e] = true
				all = append(all, e)
			}
		}
	}
	sort.Strings(all)
	return all
}

func allowedExt(e string) bool {
	return slices.Contains(AllowedExtensions(), e)
}

func in(list []string, e string) bool {
	for _, x := range list {
		if x == e {
			return true
		}
	}
	return false
}

// limitFor is the size limit of a file by its extension.
func (l Limits) limitFor(e string) int64 {
	switch {
	case in(imageExts, e):
		return l.Image
	case in(videoExts, e):
		return l.Video
	case in(pdfExts, e):
		return l.PDF
	}
	return l.Default
}

// TypeLimit is one type's limit as the client reads it.
type TypeLimit struct {
	AssocExts      []string `json:"assocExts"`
	SizeLimitBytes int64    `json:"sizeLimitBytes"`
}

// SizeLimits is the answer of GET /assets/assetSizeLimits.
type SizeLimits struct {
	Portal struct {
		Image   TypeLimit `json:"image"`
		Video   TypeLimit `json:"video"`
		PDF     TypeLimit `json:"pdf"`
		Default TypeLimit `json:"default"`
	} `json:"portal"`
	TotalLimitBytes   int64    `json:"totalLimitBytes"`
	AllowedExtensions []string `json:"allowedExtensions"`
}

// SizeLimits describes the limits for the client.
func (l Limits) SizeLimits() SizeLimits {
	var s SizeLimits
	s.Portal.Image = TypeLimit{AssocExts: imageExts, SizeLimitBytes: l.Image}
	s.Portal.Video = TypeLimit{AssocExts: videoExts, SizeLimitBytes: l.Video}
	s.Portal.PDF = TypeLimit{AssocExts: pdfExts, SizeLimitBytes: l.PDF}
	s.Portal.Default = TypeLimit{AssocExts: []string{}, SizeLimitBytes: l.Default}
	s.TotalLimitBytes = TotalLimit
	s.AllowedExtensions = AllowedExtensions()
	return s
}

// ContentType is the Content-Type of a file by its name (the file type table, text with
// charset=utf-8); application/octet-stream when the name does not say (Service.TypeOf reads
// the content then).
func ContentType(name string) string { return byName(name).ContentType() }

// byName is a file's type by its name, binary when the name does not say.
func byName(name string) filetype.Type {
	if t, ok := filetype.ByName(name); ok {
		return t
	}
	return filetype.Binary
}

// sniffed is the type of an opened file: by its name, else from its first bytes (f is read
// from its start and left there).
func sniffed(f io.ReadSeeker, name string) (filetype.Type, error) {
	if t, ok := filetype.ByName(name); ok {
		return t, nil
	}
	head, err := io.ReadAll(io.LimitReader(f, filetype.SniffLen))
	if err != nil {
		return filetype.Binary, err
	}
	_, err = f.Seek(0, io.SeekStart)
	return filetype.Sniff(head), err
}

// CanEdit says whether the source or JSON editor may edit a file, and why not.
type CanEdit struct {
	Editable       bool   `json:"editable"`
	ToolTipMessage string `json:"toolTipMessage"`
}

// Spec messages.
const (
	MsgNoSchemaSource  = "No schema file: opens in the source editor (JSON syntax is checked on save)"
	MsgJSONC           = "JSON with comments by its name: opens in the source editor and is saved as text"
	MsgLink            = "A symbolic link in the portal's repository (shown, never changed here) to "
	MsgSubmodule       = "A git submodule (shown, never changed here)"
	MsgLFS             = "A Git LFS object: the repository holds only its pointer (shown, never changed here)"
	MsgMicrosite       = "This data is read from a microsite. To edit it, open the microsite and edit it from there"
	MsgChildren        = "Folder still has children."
	MsgUsed            = "The asset is used by other files."
	MsgSizeExceeded    = "file size exceeded"
	CodeContentInvalid = "CONTENT_VALIDATION_FAILED"
)

// Asset is a file or folder as the asset manager shows it (spec 2 §3).
type Asset struct {
	Name        string  `json:"name"`
	Path        string  `json:"path"`
	Type        string  `json:"type"`
	CreatedDate string  `json:"createdDate"`
	Size        int64   `json:"size"`
	Width       int     `json:"width"`
	Height      int     `json:"height"`
	Dimensions  string  `json:"dimensions"`
	CanEdit     CanEdit `json:"canEdit"`
	IsHidden    bool    `json:"isHidden"`
	HasChildren bool    `json:"hasChildren"`
	Version     string  `json:"version,omitempty"`
	// EditorMode is the source editor's Ace mode of an editable file (the file type table).
	EditorMode string `json:"editorMode,omitempty"`
	// StrictJSON (files read one by one) says a save of this JSON file must be strict JSON: it
	// has a companion schema, or it is strict JSON now and not JSON with comments by its name.
	StrictJSON bool `json:"strictJson,omitempty"`
	// Kind marks an entry the product shows but never changes (workspace.KindLink,
	// KindSubmodule, KindLFS); Target is a link's target or an LFS object's id.
	Kind     string   `json:"kind,omitempty"`
	Target   string   `json:"target,omitempty"`
	Children []*Asset `json:"children"` // folders: their children (when listed); files: null
}

// Size is an image's width and height (0, 0 when not an image or unknown).
type Size struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// DeleteResult is one item of a delete's answer.
type DeleteResult struct {
	File   string       `json:"file"`
	Result bool         `json:"result"`
	Error  *DeleteError `json:"error,omitempty"`
}

// DeleteError holds the reason as a JSON string (the spec's shape).
type DeleteError struct {
	Error string `json:"error"`
}

// UploadResult is the answer of a multi upload.
type UploadResult struct {
	Success []string      `json:"success"`
	Errors  []UploadError `json:"errors"`
}

// UploadError is one refused file of an upload; Error is a JSON string.
type UploadError struct {
	Filename string `json:"filename"`
	Error    string `json:"error"`
}
