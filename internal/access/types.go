package access

import "time"

// Domain is an account: it owns portals, members and permission groups.
type Domain struct {
	ID        int64     `json:"id"`
	Name      string    `json:"name"`
	HasLogo   bool      `json:"hasLogo"`
	CreatedAt time.Time `json:"createdAt"`
}

// Member is a user of a domain as the domain screens list them.
type Member struct {
	ID        int64  `json:"id"`
	UserName  string `json:"userName"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Email     string `json:"email"`
	Admin     bool   `json:"admin"`
}

// AccountGroup is a group as usersInfo reports it.
type AccountGroup struct {
	GroupName string `json:"groupName"`
}

// UserInfo is one row of GET /domain/usersInfo/{id}.
type UserInfo struct {
	UserID        int64          `json:"userId"`
	AccountGroups []AccountGroup `json:"accountGroups"`
}

// Group is a permission group (role) of a domain.
type Group struct {
	ID          int64    `json:"id"`
	GroupName   string   `json:"groupName"`
	Permissions []string `json:"permissions"`
}

// UserRoles is what a user holds in a domain: the groups and the permissions they give.
type UserRoles struct {
	DomainID    int64    `json:"domainId"`
	Roles       []string `json:"roles"`
	Permissions []string `json:"permissions"`
	Admin       bool     `json:"admin"` // admins hold every permission whatever their groups
}

// AccountMeta summarises a domain for its dashboard.
type AccountMeta struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	MemberCount int       `json:"memberCount"`
	GroupCount  int       `json:"groupCount"`
	PortalCount int       `json:"portalCount"` // deleting the domain deletes these portals
	HasLogo     bool      `json:"hasLogo"`
	CreatedAt   time.Time `json:"createdAt"`
}
