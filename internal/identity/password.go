package identity

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/crypto/argon2"
)

// argon2id parameters: one of OWASP's equivalent settings (12 MiB, 3 passes, 1 lane). Of
// those, it trades memory for passes: every hash allocates its memory, so a smaller block
// keeps the server's footprint low and many sign-ins at once affordable.
const (
	argonMemoryKiB = 12 * 1024
	argonTime      = 3
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
)

// hashSlots bounds how many argon2id computations run at once: each takes argonMemoryKiB,
// so a burst of sign-ins queues here instead of exhausting memory.
var hashSlots = make(chan struct{}, max(2, runtime.NumCPU()))

func argonKey(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
	hashSlots <- struct{}{}
	defer func() { <-hashSlots }()
	return argon2.IDKey(password, salt, time, memory, threads, keyLen)
}

// HashPassword returns an argon2id hash in the PHC string format.
func HashPassword(password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argonKey([]byte(password), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemoryKiB, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// VerifyPassword tells whether password matches the PHC-encoded argon2id hash.
func VerifyPassword(encoded, password string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errors.New("password hash: unsupported format")
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errors.New("password hash: unsupported version")
	}
	var mem, iter uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &iter, &threads); err != nil {
		return false, errors.New("password hash: bad parameters")
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, errors.New("password hash: bad salt")
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil {
		return false, errors.New("password hash: bad key")
	}
	if mem > 256*1024 || iter > 16 || threads == 0 || threads > 16 {
		return false, errors.New("password hash: parameters out of range")
	}
	got := argonKey([]byte(password), salt, iter, mem, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is verified against when the user does not exist, so that a wrong user name
// takes as long as a wrong password and does not reveal which names exist. It is made on
// first use, not at start.
var dummyHash = sync.OnceValue(func() string {
	h, err := HashPassword("portalwright-timing-equaliser")
	if err != nil {
		panic(err)
	}
	return h
})

// RandomPassword returns a password of n characters from an alphabet without look-alikes.
func RandomPassword(n int) string {
	const alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}
