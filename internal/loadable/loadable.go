// Package loadable makes, approves and hands over loadables: packages of a universal portal,
// built from one git commit, that go onto the aircraft (spec 3 §1 delivery, §3 Loadable
// generation request, §4 Loadables, §7 Loadable; issue 14).
//
// What is loaded must be exactly what was approved. The rules, each enforced here:
//
//   - A loadable names one commit, resolved when it is created (gitRef → commitId); its
//     package is built from a snapshot of that commit in the canonical repository (never from
//     anybody's workspace), by the portal's tasks in the task runner's sandbox.
//   - The package is deterministic (archive.go): the same commit gives the same bytes, and its
//     manifest.json lists every file with its SHA-256 and the source commit.
//   - A package is written under a temporary name, synced, then renamed; the record turns
//     GENERATED only after that. A generation cut short (a crash, a restart) leaves the record
//     FAILED and no archive: nothing half-written is ever downloadable.
//   - Status moves one way: PENDING → GENERATING → GENERATED | FAILED (a failed one may be
//     generated again); GENERATED → APPROVED | REJECTED, decided by someone holding
//     loadable approval. Only an APPROVED loadable is handed over, and the archive's SHA-256
//     is checked against the record before approval and before every hand-over.
//   - The copyright statement must be accepted; the acceptance records the user and the
//     client address of the request (never a third-party lookup).
package loadable

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"portalwright/internal/apperr"
	"portalwright/internal/notice"
)

// Status is where a loadable is in its life (docs/api.md "Loadables").
type Status string

const (
	Pending    Status = "PENDING"    // created, not generated yet
	Generating Status = "GENERATING" // its package is being built
	Generated  Status = "GENERATED"  // built; waiting for approval
	Failed     Status = "FAILED"     // the build failed (may be generated again)
	Approved   Status = "APPROVED"   // approved: may be handed over
	Rejected   Status = "REJECTED"   // rejected: never handed over
)

// Statuses lists every status.
var Statuses = []Status{Pending, Generating, Generated, Failed, Approved, Rejected}

// Payload types (lookup PayloadType).
var PayloadTypes = []string{"PORTAL", "MICROSITE", "CAPTIVE", "MEDIA"}

// Permissions (spec 3 §6: loadable:c, loadable:r; approval is loadable:a).
const (
	PermCreate  = "loadable:c"
	PermRead    = "loadable:r"
	PermApprove = "loadable:a"
)

// ErrorCodeMakeload is the code of a failed build; its output is in the record (spec 3 §8).
const ErrorCodeMakeload = "FAILED_TO_CREATE_LOADABLE_USING_MAKELOAD"

// interrupted is the error of a generation cut short — its server stopped (normally or not) or
// lost contact — rather than failed: nothing is wrong with the loadable, Retry generates it.
var interrupted = notice.ErrorInfo{Title: "Failed to generate loadable", Code: "LOADABLE_INTERRUPTED",
	Message: "The generation stopped: the server running it stopped or lost contact. Generate it again."}

// Person is a user as a loadable shows them.
type Person struct {
	ID       int64  `json:"id"`
	UserName string `json:"userName"`
}

// Loadable is one package's record.
type Loadable struct {
	ID            int64             `json:"id"`
	DomainID      int64             `json:"domainId"`
	PortalID      int64             `json:"portalId"`
	Name          string            `json:"name"`
	PartNumber    string            `json:"partNumber"`
	VersionPrefix string            `json:"versionPrefix"`
	Version       string            `json:"version"` // versionPrefix + "." + build number: the versionTag
	Type          string            `json:"type"`
	GitRef        string            `json:"gitRef"`
	CommitID      string            `json:"commitId"`
	Status        Status            `json:"status"`
	FileName      string            `json:"fileName"`
	Size          int64             `json:"size"`
	SHA256        string            `json:"sha256"`
	Error         *notice.ErrorInfo `json:"error"`
	RejectReason  string            `json:"rejectReason"`
	CreatedBy     Person            `json:"createdBy"`
	ApprovedBy    *Person           `json:"approvedBy"`
	RejectedBy    *Person           `json:"rejectedBy"`
	CreatedAt     time.Time         `json:"createdAt"`
	GeneratedAt   *time.Time        `json:"generatedAt"`
	DecidedAt     *time.Time        `json:"decidedAt"`
	Copyright     Copyright         `json:"-"` // GET getCopyright/{id}
	Output        string            `json:"-"` // the failed build's output (in Error.Output)
	heartbeat     time.Time         // while GENERATING: the last sign of life of its generation

	// ApprovalOverride is set when the loadable was approved over the readiness gate: the
	// approver's reason and how many readiness errors its commit had (null otherwise).
	ApprovalOverride *ApprovalOverride `json:"approvalOverride"`
}

// ApprovalOverride records an approval over the readiness gate (docs/readiness.md "The
// approval gate").
type ApprovalOverride struct {
	Reason string `json:"reason"`
	Errors int    `json:"errors"`
}

// Copyright is the copyright step of the wizard (spec 3 §3 copyrightData with metaData).
type Copyright struct {
	Statement string        `json:"statement"`
	Assets    []Asset       `json:"assets,omitempty"` // removed before sending (spec 3 §3)
	MetaData  CopyrightMeta `json:"metaData"`
	Accepted  *AcceptedBy   `json:"accepted,omitempty"`
}

// CopyrightMeta is what the user sends back: accept, and the client address (filled by the
// server from the request).
type CopyrightMeta struct {
	Accept    bool   `json:"accept"`
	IPAddress string `json:"ipAddress"`
}

// AcceptedBy records the acceptance.
type AcceptedBy struct {
	User Person    `json:"user"`
	At   time.Time `json:"at"`
	IP   string    `json:"ipAddress"`
}

// Asset is a media file of the commit the statement covers.
type Asset struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// Request is the loadable generation request (spec 3 §3).
type Request struct {
	Name          string    `json:"name"`
	PartNumber    string    `json:"partNumber"`
	VersionPrefix string    `json:"versionPrefix"`
	Type          string    `json:"type"`
	GitRef        string    `json:"gitRef"`
	CopyrightData Copyright `json:"copyrightData"`
}

// The rules the spec leaves open (docs/api.md "Loadables").
var (
	nameRule    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	partRule    = regexp.MustCompile(`^[A-Z0-9][A-Z0-9-]{2,31}$`)
	versionRule = regexp.MustCompile(`^(0|[1-9][0-9]{0,2})\.(0|[1-9][0-9]{0,2})$`)
)

// Messages of the rules.
const (
	msgName       = "Please enter a name of 1 to 64 letters, digits, dots, underscores and dashes, starting with a letter or digit."
	msgPart       = "Please enter a part number of 3 to 32 capital letters, digits and dashes, starting with a letter or digit."
	msgVersion    = "Please enter the version as major.minor, for example 1.0."
	msgType       = "Please choose the payload type: PORTAL, MICROSITE, CAPTIVE or MEDIA."
	msgCopyright  = "Please accept the copyright statement."
	msgGitRefNone = "Please choose the branch, tag or commit to build the loadable from."
)

// Check validates a request (spec-less rules, documented).
func (r *Request) Check() error {
	r.Name, r.PartNumber, r.VersionPrefix = strings.TrimSpace(r.Name), strings.TrimSpace(r.PartNumber), strings.TrimSpace(r.VersionPrefix)
	r.Type, r.GitRef = strings.TrimSpace(r.Type), strings.TrimSpace(r.GitRef)
	switch {
	case !nameRule.MatchString(r.Name):
		return apperr.BadRequest("INVALID_LOADABLE_NAME", msgName)
	case !partRule.MatchString(r.PartNumber):
		return apperr.BadRequest("INVALID_PART_NUMBER", msgPart)
	case !versionRule.MatchString(r.VersionPrefix):
		return apperr.BadRequest("INVALID_VERSION_PREFIX", msgVersion)
	case !contains(PayloadTypes, r.Type):
		return apperr.BadRequest("INVALID_PAYLOAD_TYPE", msgType)
	case r.GitRef == "":
		return apperr.BadRequest("INVALID_GIT_REF", msgGitRefNone)
	case !r.CopyrightData.MetaData.Accept:
		return apperr.BadRequest("COPYRIGHT_NOT_ACCEPTED", msgCopyright)
	}
	return nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// slug makes a name part from free text: lower-case letters and digits, dashes between.
func slug(s string, max int) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
		if b.Len() >= max {
			break
		}
	}
	return strings.Trim(b.String(), "-")
}

// SuggestName proposes a loadable name: portal, payload type and date; taken names get -2, -3…
func SuggestName(portalName, contentType string, day time.Time, taken func(string) bool) string {
	base := slug(portalName, 32)
	if base == "" {
		base = "portal"
	}
	if t := slug(contentType, 12); t != "" {
		base += "-" + t
	}
	base += "-" + day.UTC().Format("20060102")
	name := base
	for i := 2; taken(name) && i < 1000; i++ {
		name = base + "-" + strconv.Itoa(i)
	}
	return name
}

// SuggestPartNumber proposes a part number from a folder name, payload type and content tag.
func SuggestPartNumber(folder, contentType, tag string) string {
	up := func(s string, n int) string {
		s = strings.ToUpper(slug(s, n*2))
		s = strings.ReplaceAll(s, "-", "")
		if len(s) > n {
			s = s[:n]
		}
		return s
	}
	parts := []string{"PW"}
	for _, p := range []string{up(contentType, 3), up(folder, 8), up(tag, 8)} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	pn := strings.Join(parts, "-")
	if len(pn) < 3 {
		pn += "-00"
	}
	return pn
}

// FileName is the package's file name: name and version.
func FileName(name, version string) string { return fmt.Sprintf("%s-%s.tar.gz", name, version) }
