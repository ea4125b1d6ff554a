package readiness

import "container/list"

// lru is a bounded map that forgets the least recently used entry first. It is not safe for
// concurrent use: the service holds its lock around every call.
type lru[K comparable, V any] struct {
	max   int
	order *list.List // front: most recently used
	items map[K]*list.Element
}

type lruItem[K comparable, V any] struct {
	key K
	val V
}

func newLRU[K comparable, V any](max int) *lru[K, V] {
	return &lru[K, V]{max: max, order: list.New(), items: map[K]*list.Element{}}
}

// get answers the value of k and marks it used.
func (c *lru[K, V]) get(k K) (V, bool) {
	if e, ok := c.items[k]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*lruItem[K, V]).val, true
	}
	var zero V
	return zero, false
}

// peek answers the value of k without marking it used.
func (c *lru[K, V]) peek(k K) (V, bool) {
	if e, ok := c.items[k]; ok {
		return e.Value.(*lruItem[K, V]).val, true
	}
	var zero V
	return zero, false
}

// put stores v under k, forgetting the least recently used entry beyond the bound.
func (c *lru[K, V]) put(k K, v V) {
	if e, ok := c.items[k]; ok {
		e.Value.(*lruItem[K, V]).val = v
		c.order.MoveToFront(e)
		return
	}
	c.items[k] = c.order.PushFront(&lruItem[K, V]{key: k, val: v})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*lruItem[K, V]).key)
	}
}

// remove forgets k.
func (c *lru[K, V]) remove(k K) {
	if e, ok := c.items[k]; ok {
		c.order.Remove(e)
		delete(c.items, k)
	}
}

// each calls f for every entry, most recently used first.
func (c *lru[K, V]) each(f func(K, V)) {
	for e := c.order.Front(); e != nil; e = e.Next() {
		it := e.Value.(*lruItem[K, V])
		f(it.key, it.val)
	}
}
