#include "js_mailbox_adapter.hpp"

#include <string>
#include <unordered_map>

#include "conversions.hpp"
#include "js_hooks.hpp"

namespace mailroom::wasm {

using emscripten::val;

namespace {
std::unordered_map<std::uint32_t, DropObserver>& observers() {
  static std::unordered_map<std::uint32_t, DropObserver> table;
  return table;
}
std::uint32_t next_observer = 1;

val checked(val result) {
  if (threw(result)) rethrow_js(result["thrown"]);
  return result;
}
}  // namespace

JsMessageQueue::JsMessageQueue(val instance, MailboxDescription base,
                               std::shared_ptr<MessageQueue> own)
    : instance_(std::move(instance)), base_(std::move(base)), own_(std::move(own)) {
  reports_drops_ = checked(call("mailboxReportsDrops")).as<bool>();
  dead_letter_drops_ = checked(call("mailboxDeadLetterDrops")).as<bool>();
}

JsMessageQueue::~JsMessageQueue() {
  for (std::uint32_t key : observer_keys_) observers().erase(key);
}

bool JsMessageQueue::try_claim(const void* owner, std::string owner_path) {
  if (!MessageQueue::try_claim(owner, owner_path)) return false;
  // The subclass's own queue goes with it; a subclass instance is one actor's.
  if (own_->try_claim(this, std::move(owner_path))) return true;
  MessageQueue::release(owner);
  return false;
}

void JsMessageQueue::release(const void* owner) noexcept {
  if (MessageQueue::owner() == owner) own_->release(this);
  MessageQueue::release(owner);
}

// Every call into the subclass is the framework's: its super.* calls reach
// its own (owned) core queue.
val JsMessageQueue::call(const char* hook) const {
  MessageQueue::FrameworkCall serving(*own_);
  return hooks()[hook](instance_);
}

void JsMessageQueue::enqueue_js(Envelope envelope, bool signal) {
  MessageQueue::FrameworkCall serving(*own_);
  checked(hooks()["mailboxEnqueue"](instance_, signal, envelope_to_js(envelope, 0)));
}

void JsMessageQueue::do_enqueue(Envelope envelope) {
  enqueue_js(std::move(envelope), false);
}
void JsMessageQueue::do_enqueue_signal(Envelope envelope) {
  enqueue_js(std::move(envelope), true);
}

std::size_t JsMessageQueue::size() const {
  val n = checked(call("mailboxSize"));
  return n.isNumber() ? static_cast<std::size_t>(n.as<double>()) : 0;
}

MailboxDescription JsMessageQueue::describe() const {
  MailboxDescription d = base_;
  d.kind = checked(call("mailboxClassName")).as<std::string>();
  d.dead_letter_drops = dead_letter_drops_;
  return d;
}

void JsMessageQueue::observe_drops(DropObserver observer) {
  if (!reports_drops_) return;
  const std::uint32_t key = next_observer++;
  observers().emplace(key, std::move(observer));
  observer_keys_.push_back(key);
  MessageQueue::FrameworkCall serving(*own_);
  checked(hooks()["mailboxObserveDrops"](instance_, key));
}

std::uint64_t JsMessageQueue::dropped_count() const noexcept {
  try {
    val n = call("mailboxDroppedCount");
    return n.isNumber() ? static_cast<std::uint64_t>(n.as<double>()) : 0;
  } catch (...) {
    return 0;
  }
}

std::optional<Envelope> JsMessageQueue::do_dequeue() {
  val raw = checked(call("mailboxDequeue"));
  if (raw.isNull() || raw.isUndefined()) return std::nullopt;
  return envelope_from_js(raw);
}

std::vector<Envelope> JsMessageQueue::do_drain() {
  val raws = checked(call("mailboxDrain"));
  std::vector<Envelope> out;
  const int n = raws["length"].as<int>();
  out.reserve(n);
  for (int i = 0; i < n; ++i) out.push_back(envelope_from_js(raws[i]));
  return out;
}

void JsMessageQueue::do_prepend(std::vector<Envelope> envelopes) {
  val raws = val::array();
  for (const Envelope& e : envelopes) raws.call<void>("push", envelope_to_js(e, 0));
  MessageQueue::FrameworkCall serving(*own_);
  checked(hooks()["mailboxPrepend"](instance_, raws));
}

void JsMessageQueue::notify_drop(std::uint32_t key, const std::string& reason,
                                 const val& envelope) {
  auto it = observers().find(key);
  if (it == observers().end()) return;
  const auto parsed = drop_reason_from_string(reason);
  Envelope dropped;
  if (!envelope.isNull() && !envelope.isUndefined()) dropped = envelope_from_js(envelope);
  it->second(parsed.value_or(DropReason::kDropNew), dropped);
}

}  // namespace mailroom::wasm
