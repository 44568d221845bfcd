/*
 * LazyDeque<T>: a std::deque that allocates nothing until its first element.
 *
 * libstdc++'s std::deque allocates its map (64 octets) and a first 512-octet node when it is
 * constructed, before anything is pushed. A queue pair holds nine such queues (RnicPipeline,
 * DdpEndpoint and its untagged queues, RdmapEndpoint), so an idle, connected QP carried about
 * 5.7 KiB of empty deques (measured with heaptrack by iwarp-bench-scaling --profile-idle;
 * doc/performance.md). This holds the deque behind a pointer made on the first insertion;
 * operations that only read an empty queue allocate nothing. Once made, the deque stays: a
 * queue that has carried traffic keeps its node, as std::deque would.
 */
/**
 * \file
 * \ingroup iwarp-common
 */
#ifndef IWARP_LAZY_DEQUE_H
#define IWARP_LAZY_DEQUE_H

#include <cstddef>
#include <deque>
#include <memory>
#include <utility>

namespace ns3
{

template <typename T>
class LazyDeque
{
  public:
    using iterator = typename std::deque<T>::iterator;
    using const_iterator = typename std::deque<T>::const_iterator;

    LazyDeque() = default;
    LazyDeque(LazyDeque&&) noexcept = default;
    LazyDeque& operator=(LazyDeque&&) noexcept = default;
    LazyDeque(const LazyDeque& other)
        : m_q(other.m_q ? std::make_unique<std::deque<T>>(*other.m_q) : nullptr)
    {
    }
    LazyDeque& operator=(const LazyDeque& other)
    {
        m_q = other.m_q ? std::make_unique<std::deque<T>>(*other.m_q) : nullptr;
        return *this;
    }

    bool empty() const { return !m_q || m_q->empty(); }
    std::size_t size() const { return m_q ? m_q->size() : 0; }

    // Like std::deque, these need a non-empty queue.
    T& front() { return m_q->front(); }
    const T& front() const { return m_q->front(); }
    T& back() { return m_q->back(); }
    const T& back() const { return m_q->back(); }
    T& operator[](std::size_t i) { return (*m_q)[i]; }
    const T& operator[](std::size_t i) const { return (*m_q)[i]; }
    void pop_front() { m_q->pop_front(); }

    void push_back(const T& v) { Made().push_back(v); }
    void push_back(T&& v) { Made().push_back(std::move(v)); }
    template <typename... Args>
    T& emplace_back(Args&&... args)
    {
        return Made().emplace_back(std::forward<Args>(args)...);
    }

    /** Empties the queue and gives its memory back (an idle queue costs nothing again). */
    void clear() { m_q.reset(); }

    /** Exchanges contents with a plain deque (the caller's scratch queue). */
    void swap(std::deque<T>& other)
    {
        if (m_q || !other.empty())
        {
            Made().swap(other);
        }
    }

    // Iteration over an empty queue visits nothing and allocates nothing.
    iterator begin() { return m_q ? m_q->begin() : iterator(); }
    iterator end() { return m_q ? m_q->end() : iterator(); }
    const_iterator begin() const { return m_q ? m_q->cbegin() : const_iterator(); }
    const_iterator end() const { return m_q ? m_q->cend() : const_iterator(); }

    /** Whether the deque behind it exists (tests: an idle queue has none). */
    bool IsAllocated() const { return bool(m_q); }

  private:
    std::deque<T>& Made()
    {
        if (!m_q)
        {
            m_q = std::make_unique<std::deque<T>>();
        }
        return *m_q;
    }

    std::unique_ptr<std::deque<T>> m_q;
};

} // namespace ns3

#endif // IWARP_LAZY_DEQUE_H
