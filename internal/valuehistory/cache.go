package valuehistory

import (
	"container/list"
	"sync"
)

// lru is a cache bounded by the sum of its values' sizes: the least recently used values go
// first. Safe for concurrent use.
type lru[V any] struct {
	mu    sync.Mutex
	max   int
	used  int
	order *list.List // front: most recent
	items map[string]*list.Element
}

type lruItem[V any] struct {
	key  string
	val  V
	size int
}

func newLRU[V any](maxBytes int) *lru[V] {
	return &lru[V]{max: maxBytes, order: list.New(), items: map[string]*list.Element{}}
}

func (c *lru[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*lruItem[V]).val, true
	}
	var zero V
	return zero, false
}

// put keeps val (size bytes); a value larger than the whole cache is not kept.
func (c *lru[V]) put(key string, val V, size int) {
	if size > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		c.used -= e.Value.(*lruItem[V]).size
		c.order.Remove(e)
	}
	c.items[key] = c.order.PushFront(&lruItem[V]{key: key, val: val, size: size})
	c.used += size
	for c.used > c.max {
		e := c.order.Back()
		it := e.Value.(*lruItem[V])
		c.order.Remove(e)
		delete(c.items, it.key)
		c.used -= it.size
	}
}
