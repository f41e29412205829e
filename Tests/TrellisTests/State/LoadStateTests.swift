import Testing
import Trellis

enum FetchError: Error, Equatable {
  case offline
}

@Suite struct LoadStateTests {
  @Test func aFirstLoadShowsProgressThenContent() {
    var state = LoadState<[Int], FetchError>.idle
    #expect(state.presentation == .nothing)
    state.startLoading()
    #expect(state == .loading(previous: nil))
    #expect(state.presentation == .progress)
    state.finish(with: [1, 2])
    #expect(state == .loaded([1, 2]))
    #expect(state.presentation == .content([1, 2], .current))
  }

  @Test func anEmptyResultIsTheEmptyState() {
    var state = LoadState<[Int], FetchError>.loading(previous: [1])
    state.finish(with: [])
    #expect(state == .empty)
    #expect(state.content == nil)
    #expect(state.presentation == .empty)
  }

  @Test func refreshingKeepsThePreviousContentOnScreen() {
    var state = LoadState<[Int], FetchError>.loaded([1])
    state.startLoading()
    #expect(state.isLoading)
    #expect(state.content == [1])
    #expect(state.presentation == .content([1], .refreshing))
  }

  @Test func aFailedRefreshKeepsContentAndReportsTheError() {
    var state = LoadState<[Int], FetchError>.loaded([1])
    state.startLoading()
    state.fail(with: .offline)
    #expect(state == .failed(.offline, previous: [1]))
    #expect(state.failure == .offline)
    #expect(state.isLoading == false)
    #expect(state.presentation == .content([1], .failedToRefresh(.offline)))
  }

  @Test func aFailedFirstLoadShowsTheError() {
    var state = LoadState<[Int], FetchError>.idle
    state.startLoading()
    state.fail(with: .offline)
    #expect(state.presentation == .failure(.offline))
    state.startLoading()
    #expect(state == .loading(previous: nil))
  }

  @Test func emptinessCanBeDecidedByTheCaller() {
    struct Page: Equatable { var items: [Int]; var total: Int }
    var state = LoadState<Page, FetchError>.idle
    state.finish(with: Page(items: [], total: 0)) { $0.total == 0 }
    #expect(state == .empty)
  }
}
