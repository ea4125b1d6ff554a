package admin

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"portalwright/internal/access"
	"portalwright/internal/apperr"
	"portalwright/internal/audit"
	"portalwright/internal/caller"
	"portalwright/internal/httpx"
	"portalwright/internal/identity"
	"portalwright/internal/store"
)

// EmailRequest is the body of POST /user/send-email: a message to chosen users, or to the
// members of a domain (all of them when userIds is empty).
type EmailRequest struct {
	Subject  string  `json:"subject"`
	Message  string  `json:"message"`
	UserIDs  []int64 `json:"userIds"`
	DomainID int64   `json:"domainId"`
}

// EmailResult says what was queued.
type EmailResult struct {
	Queued  int      `json:"queued"`
	NoEmail []string `json:"noEmail"` // users without an address, skipped
}

// Messenger sends administrators' and domain managers' e-mails to users. They are
// notifications: users who opted out do not receive them.
type Messenger struct {
	db     *store.DB
	users  *identity.Service
	access *access.Service
	mailer identity.Mailer
	audit  Auditor
}

func NewMessenger(db *store.DB, users *identity.Service, acc *access.Service, mailer identity.Mailer, a Auditor) *Messenger {
	return &Messenger{db: db, users: users, access: acc, mailer: mailer, audit: a}
}

// Send checks who may write to whom and queues one mail per recipient in one transaction.
func (m *Messenger) Send(ctx context.Context, p caller.Caller, req EmailRequest) (*EmailResult, error) {
	req.Subject = strings.TrimSpace(req.Subject)
	req.Message = strings.TrimSpace(req.Message)
	if req.Subject == "" || req.Message == "" {
		return nil, apperr.Validation("Enter a subject and a message.")
	}
	if utf8.RuneCountInString(req.Subject) > 200 || strings.ContainsAny(req.Subject, "\r\n") {
		return nil, apperr.Validation("The subject must be one line of at most 200 characters.")
	}
	if utf8.RuneCountInString(req.Message) > 20000 {
		return nil, apperr.Validation("The message must be at most 20000 characters.")
	}
	ids, err := m.recipients(ctx, p, req)
	if err != nil {
		return nil, err
	}
	res := &EmailResult{NoEmail: []string{}}
	var mails []identity.Mail
	for _, id := range ids {
		u, err := m.users.User(ctx, id)
		if err != nil {
			return nil, err
		}
		if u.Email == "" {
			res.NoEmail = append(res.NoEmail, u.UserName)
			continue
		}
		mails = append(mails, identity.Mail{To: u.Email, ToName: u.FullName(), UserID: u.ID, Subject: req.Subject,
			Text: strings.ReplaceAll(req.Message, "\n", "\r\n") + "\r\n\r\n-- \r\nSent by " + p.Username + " through Portalwright.\r\n"})
	}
	if err := m.db.WithTx(ctx, func(tx *store.Tx) error {
		for _, mail := range mails {
			if err := m.mailer.QueueTx(ctx, tx, mail); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	res.Queued = len(mails)
	if m.audit != nil {
		actor := p.UserID
		e := audit.Entry{Action: "USER_EMAILED", ActorID: &actor, ActorName: p.Username, EntityType: "USER",
			Details: req.Subject + " (" + strconv.Itoa(res.Queued) + " recipients)"}
		if req.DomainID != 0 {
			d := req.DomainID
			e.Action, e.DomainID, e.EntityType, e.EntityID = "DOMAIN_EMAILED", &d, "DOMAIN", strconv.FormatInt(d, 10)
		}
		m.audit.Record(ctx, e)
	}
	return res, nil
}

// recipients resolves and authorises the recipient list.
func (m *Messenger) recipients(ctx context.Context, p caller.Caller, req EmailRequest) ([]int64, error) {
	if req.DomainID == 0 {
		if !p.Admin {
			return nil, apperr.Forbidden("FORBIDDEN", "Only administrators can e-mail users outside a domain.")
		}
		if len(req.UserIDs) == 0 {
			return nil, apperr.Validation("Choose at least one recipient.")
		}
		return req.UserIDs, nil
	}
	domain := strconv.FormatInt(req.DomainID, 10)
	ok, err := m.access.Allowed(ctx, p, "domain_user_create", domain)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.Forbidden("FORBIDDEN", "You do not have the right permission to access to this section. Please contact your Administrator")
	}
	members, err := m.access.Members(ctx, req.DomainID)
	if err != nil {
		return nil, err
	}
	inDomain := map[int64]bool{}
	all := make([]int64, 0, len(members))
	for _, mb := range members {
		inDomain[mb.ID] = true
		all = append(all, mb.ID)
	}
	if len(req.UserIDs) == 0 {
		if len(all) == 0 {
			return nil, apperr.Validation("The domain has no users to e-mail.")
		}
		return all, nil
	}
	for _, id := range req.UserIDs {
		if !inDomain[id] {
			return nil, apperr.Validation("User " + strconv.FormatInt(id, 10) + " is not a member of this domain.")
		}
	}
	return req.UserIDs, nil
}

// EmailHandler serves POST /user/send-email.
type EmailHandler struct{ m *Messenger }

func NewEmailHandler(m *Messenger) *EmailHandler { return &EmailHandler{m: m} }

func (h *EmailHandler) Routes() []httpx.Route {
	// Authenticated here, authorised in Send: admins write to anyone, holders of
	// domain_user_create to the members of their domain.
	return []httpx.Route{{Method: http.MethodPost, Pattern: "/user/send-email", Access: httpx.Authenticated, Handler: h.send, In: EmailRequest{}, Out: EmailResult{}}}
}

func (h *EmailHandler) send(w http.ResponseWriter, r *http.Request) error {
	var req EmailRequest
	if err := httpx.Decode(r, &req); err != nil {
		return err
	}
	res, err := h.m.Send(r.Context(), caller.Must(r.Context()), req)
	if err != nil {
		return err
	}
	return httpx.OK(w, res)
}
