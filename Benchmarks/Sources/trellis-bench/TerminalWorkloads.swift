import TrellisTerminal

/// Runs `render:200x60` and returns the median µs and bytes per frame.
///
/// Frames of 200×60 cells, each with 5% of the cells changed (text and style) from the one before,
/// are diffed and encoded by a FrameRenderer.
func renderWorkload(rng: inout SplitMix64) -> (microseconds: Double, bytes: Int) {
  let width = 200
  let height = 60
  let glyphs: [String] = ["a", "b", "x", "7", "#", "한", "新", "😃", "─", "é"]
  let styles = [
    Style.plain, Style(foreground: .red), Style(attributes: .bold),
    Style(foreground: .indexed(141), background: .rgb(20, 20, 30)),
  ]
  var frame = CellBuffer(width: width, height: height)
  frame.draw { canvas in
    for row in 0..<height {
      canvas.text(String(repeating: "Trellis 전체 ", count: 20), x: 0, y: row)
    }
  }
  var frames: [CellBuffer] = []
  for _ in 0..<101 {
    let changes = width * height / 20
    frame.draw { canvas in
      for _ in 0..<changes {
        canvas.text(
          glyphs[Int.random(in: 0..<glyphs.count, using: &rng)],
          x: Int.random(in: 0..<width, using: &rng), y: Int.random(in: 0..<height, using: &rng),
          style: styles[Int.random(in: 0..<styles.count, using: &rng)])
      }
    }
    frames.append(frame)
  }
  var renderer = FrameRenderer()
  _ = renderer.render(frames[0])
  var times: [Double] = []
  var sizes: [Int] = []
  var out: [UInt8] = []
  out.reserveCapacity(1 << 16)
  for index in 1..<frames.count {
    out.removeAll(keepingCapacity: true)
    let start = clock.now
    renderer.render(frames[index], into: &out)
    times.append(milliseconds(clock.now - start) * 1000)
    sizes.append(out.count)
  }
  return (median(times), Int(median(sizes.map(Double.init))))
}

/// `render:one-cell`: the bytes that change one cell of a full 200×60 screen.
func oneCellBytes() -> Int {
  var frame = CellBuffer(width: 200, height: 60)
  frame.draw { $0.fill(with: "x") }
  var renderer = FrameRenderer()
  _ = renderer.render(frame)
  frame.draw { $0.text("y", x: 150, y: 40) }
  return renderer.render(frame).count
}
