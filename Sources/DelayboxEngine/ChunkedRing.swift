/// A first-in first-out queue of plain values stored in fixed-size chunks.
///
/// Elements are addressed by a sequence number that never changes while the element is
/// held, so other structures can refer to them across appends and drops. Memory follows
/// what is held: a chunk is allocated when the tail fills and freed (one is kept spare)
/// when the head leaves it, so a delay line sized for 30 minutes costs only what it
/// actually holds, with less than two chunks of slack, and nothing is ever copied to grow.
final class ChunkedRing<Element: BitwiseCopyable> {
    /// Elements per chunk.
    let chunkCapacity: Int
    private var chunks: [UnsafeMutablePointer<Element>] = []
    private var spare: UnsafeMutablePointer<Element>?
    /// Slot of the first held element inside `chunks[0]`.
    private var headSlot = 0
    /// Sequence number of the first held element.
    private(set) var firstSequence: Int64 = 0
    /// Number of held elements (including padding slots).
    private(set) var count = 0

    init(chunkCapacity: Int) {
        precondition(chunkCapacity > 0)
        self.chunkCapacity = chunkCapacity
    }

    deinit {
        for chunk in chunks { chunk.deallocate() }
        spare?.deallocate()
    }

    /// Sequence number the next appended element gets.
    var endSequence: Int64 { firstSequence + Int64(count) }

    /// Bytes currently allocated, spare chunk included.
    var allocatedBytes: Int {
        (chunks.count + (spare == nil ? 0 : 1)) * chunkCapacity * MemoryLayout<Element>.stride
    }

    private func location(of sequence: Int64) -> (chunk: Int, slot: Int) {
        let offset = Int(sequence - firstSequence) + headSlot
        return (offset / chunkCapacity, offset % chunkCapacity)
    }

    /// Free slots left in the tail chunk.
    private var tailRoom: Int {
        chunks.count * chunkCapacity - (headSlot + count)
    }

    private func addChunk() {
        if let chunk = spare {
            spare = nil
            chunks.append(chunk)
        } else {
            chunks.append(.allocate(capacity: chunkCapacity))
        }
    }

    subscript(sequence: Int64) -> Element {
        get {
            let (chunk, slot) = location(of: sequence)
            return chunks[chunk][slot]
        }
        set {
            let (chunk, slot) = location(of: sequence)
            chunks[chunk][slot] = newValue
        }
    }

    /// Appends one element; returns its sequence number.
    @discardableResult
    func append(_ element: Element) -> Int64 {
        if tailRoom == 0 { addChunk() }
        let sequence = endSequence
        count += 1
        self[sequence] = element
        return sequence
    }

    /// Appends `elements` so that they lie in one chunk, skipping the rest of the tail
    /// chunk if they do not fit; returns the first one's sequence number.
    /// Precondition: `elements.count <= chunkCapacity`.
    func appendContiguous(_ elements: UnsafeBufferPointer<Element>) -> Int64 {
        precondition(elements.count <= chunkCapacity)
        if tailRoom < elements.count {
            count += tailRoom
            addChunk()
        }
        let sequence = endSequence
        let (chunk, slot) = location(of: sequence)
        (chunks[chunk] + slot).update(from: elements.baseAddress!, count: elements.count)
        count += elements.count
        return sequence
    }

    /// The `length` elements from `sequence`, which `appendContiguous` stored in one chunk.
    func contiguous(from sequence: Int64, length: Int) -> UnsafeBufferPointer<Element> {
        let (chunk, slot) = location(of: sequence)
        return UnsafeBufferPointer(start: chunks[chunk] + slot, count: length)
    }

    /// Drops every element before `sequence`.
    func removeAll(before sequence: Int64) {
        let drop = Int(min(max(sequence - firstSequence, 0), Int64(count)))
        guard drop > 0 else { return }
        firstSequence += Int64(drop)
        count -= drop
        headSlot += drop
        while headSlot >= chunkCapacity {
            headSlot -= chunkCapacity
            let chunk = chunks.removeFirst()
            if spare == nil { spare = chunk } else { chunk.deallocate() }
        }
        if count == 0, headSlot > 0, chunks.count == 1 {
            // Restart at the chunk's beginning rather than keep a half-used chunk.
            headSlot = 0
        }
    }
}
