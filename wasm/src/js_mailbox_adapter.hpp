// JsMessageQueue: the user queue of an actor whose JS mailbox subclass
// overrides the user path (the seed's SheddingMailbox). Every call goes to the
// JS methods (envelopes as { message, sender }); the system queue and
// suspension are the actor's ActorMailbox's, as for every other queue. Only
// used on the host thread (wasm is single-threaded).
//
// The subclass's own core queue (`own`, what super.enqueue reaches) is
// claimed with the adapter, so the core refuses outside calls to it once an
// actor owns the adapter; the adapter's calls into JS run as FrameworkCalls,
// so the subclass's super.enqueue(...) inside them goes through.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mailroom/message_queue.hpp"

namespace mailroom::wasm {

class JsMessageQueue final : public MessageQueue {
 public:
  // `base`: the description of the subclass's own core queue `own` (capacity, policy).
  JsMessageQueue(emscripten::val instance, MailboxDescription base,
                 std::shared_ptr<MessageQueue> own);
  ~JsMessageQueue() override;

  bool try_claim(const void* owner, std::string owner_path = {}) override;
  void release(const void* owner) noexcept override;

  std::size_t size() const override;
  MailboxDescription describe() const override;

  bool reports_drops() const noexcept override { return reports_drops_; }
  void observe_drops(DropObserver observer) override;
  std::uint64_t dropped_count() const noexcept override;
  bool dead_letter_drops() const noexcept override { return dead_letter_drops_; }

  // A JS observer reported a drop (hooks → core.dropNotify).
  static void notify_drop(std::uint32_t observer_key, const std::string& reason,
                          const emscripten::val& envelope);

 protected:
  void do_enqueue(Envelope envelope) override;
  void do_enqueue_signal(Envelope envelope) override;
  std::optional<Envelope> do_dequeue() override;
  std::vector<Envelope> do_drain() override;
  void do_prepend(std::vector<Envelope> envelopes) override;

 private:
  void enqueue_js(Envelope envelope, bool signal);
  emscripten::val call(const char* hook) const;

  emscripten::val instance_;
  MailboxDescription base_;
  std::shared_ptr<MessageQueue> own_;
  bool reports_drops_;
  bool dead_letter_drops_;
  std::vector<std::uint32_t> observer_keys_;
};

}  // namespace mailroom::wasm
