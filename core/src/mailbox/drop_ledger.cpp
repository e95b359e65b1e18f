#include "mailroom/detail/drop_ledger.hpp"

#include <exception>
#include <utility>

namespace mailroom {

namespace {
// Every observer runs even if an earlier one throws: a failing metrics hook
// must not hide the drop from the dead-letter observer behind it.
void run_observers(const std::vector<DropObserver>& observers, const DropLedger::Drop& drop,
                   std::exception_ptr& first_failure) {
  for (const DropObserver& observer : observers) {
    try {
      observer(drop.reason, drop.envelope);
    } catch (...) {
      if (!first_failure) first_failure = std::current_exception();
    }
  }
}
}  // namespace

void DropLedger::observe(DropObserver observer) {
  if (!observer) return;
  std::lock_guard lock(observers_mutex_);
  auto next = std::make_shared<Observers>(*observers_);
  next->push_back(std::move(observer));
  observers_ = std::move(next);
}

std::shared_ptr<const DropLedger::Observers> DropLedger::snapshot() const {
  std::lock_guard lock(observers_mutex_);
  return observers_;
}

void DropLedger::notify(Drop drop) const {
  std::exception_ptr first_failure;
  run_observers(*snapshot(), drop, first_failure);
  { Drop ending = std::move(drop); }  // the shed envelope ends here, after every observer saw it
  if (first_failure) std::rethrow_exception(first_failure);
}

void DropLedger::notify(std::vector<Drop> drops) const {
  if (drops.empty()) return;
  const auto observers = snapshot();
  std::exception_ptr first_failure;
  for (const Drop& drop : drops) run_observers(*observers, drop, first_failure);
  drops.clear();
  if (first_failure) std::rethrow_exception(first_failure);
}

}  // namespace mailroom
