// Shared state behind a Completion: which cell and which deferred receive it
// belongs to, and whether it already fired.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace mailroom::detail {

class ActorCell;

struct CompletionState {
  std::weak_ptr<ActorCell> cell;
  std::uint64_t token = 0;
  std::atomic<bool> done{false};
};

}  // namespace mailroom::detail
