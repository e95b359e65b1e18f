#include "mailroom/actor_system.hpp"

#include "actor_cell.hpp"
#include "devtools_start.hpp"
#include "internal_messages.hpp"
#include "mailroom/actor_path.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/unbounded_mailbox.hpp"
#include "system_core.hpp"

namespace mailroom {

namespace {
// Guardians receive nothing of their own: whatever reaches them is a dead letter.
class GuardianActor final : public Actor {
 public:
  void receive(const Message& message) override { unhandled(message); }
  std::string class_name() const override { return "Guardian"; }
};

std::shared_ptr<detail::ActorCell> make_guardian(const std::shared_ptr<detail::SystemCore>& core,
                                                 const std::shared_ptr<detail::ActorCell>& parent,
                                                 const std::string& name) {
  detail::ActorCell::Init init;
  init.system = core;
  init.name = name;
  if (parent) init.parent = ActorRef(parent);
  // One move-assignment: assigning the literal "/" here trips gcc 12's false
  // -Wrestrict on std::string::_M_replace (GCC PR 105329).
  init.local_path = parent ? ActorPath::child("/", name) : std::string("/");
  init.path = ActorPath::full(core->name(), init.local_path);
  init.factory = [] { return std::make_unique<GuardianActor>(); };
  init.mailbox = std::make_shared<UnboundedMailbox>();
  init.uid = core->next_uid();
  init.guardian = true;
  auto mailbox = init.mailbox;
  auto cell = detail::ActorCell::create(std::move(init));
  mailbox->try_claim(cell.get(), cell->path());
  if (parent) parent->add_child(cell);
  cell->start_now();
  return cell;
}
}  // namespace

std::shared_ptr<ActorSystem> ActorSystem::create(std::string name, ActorSystemOptions options) {
  if (!ActorPath::is_valid_system_name(name)) {
    throw OptionsError("ActorSystem", "name", name,
                       "a system name is non-empty and only [A-Za-z0-9_-]");
  }
  auto core = std::make_shared<detail::SystemCore>(std::move(name), std::move(options));
  // A server asked for but not linked in fails here, with nothing to tear down.
  const std::optional<DevtoolsOptions> devtools = detail::devtools_request(*core);
  // Before the guardians exist: a bad dead-letter configuration then throws
  // with nothing to tear down (guardians and core hold each other).
  core->install_dead_letter_queue();
  auto root = make_guardian(core, nullptr, "");
  auto user = make_guardian(core, root, "user");
  auto system = make_guardian(core, root, "system");
  core->set_guardians(root, user, system);
  std::shared_ptr<ActorSystem> facade(new ActorSystem(core));
  core->set_facade(facade.get());
  if (devtools) detail::start_devtools(*facade, *core, *devtools);  // a failure destroys facade
  return facade;
}

ActorSystem::ActorSystem(std::shared_ptr<detail::SystemCore> core) : core_(std::move(core)) {}

ActorSystem::~ActorSystem() {
  if (detail::in_actor_turn()) {
    // Inside an actor's turn we cannot wait for the tree (we may be part of
    // it), and shutting the dispatcher down now would strand the tree half
    // stopped, parents and children holding each other. The tree stops on its
    // dispatcher; the core frees it once it is down.
    core_->terminate();
    core_->release_devtools();
    core_->set_facade(nullptr);
    core_->release_when_terminated();
    return;
  }
  if (!core_->terminated()) {
    core_->terminate();
    core_->await_termination();
  }
  core_->release_devtools();
  core_->set_facade(nullptr);
  core_->dispatcher().shutdown();
  core_->release_tree();
}

const std::string& ActorSystem::name() const noexcept {
  return core_->name();
}

ActorRef ActorSystem::spawn(ActorFactory factory, std::string name, ActorOptions options) {
  if (core_->terminating()) {
    throw IllegalStateError("cannot spawn '" + name + "': the actor system is terminating");
  }
  return ActorRef(
      core_->user_guardian()->spawn_child(std::move(factory), std::move(name), std::move(options)));
}

ActorRef ActorSystem::spawn_system_actor(ActorFactory factory, std::string name,
                                         ActorOptions options) {
  if (core_->terminating()) {
    throw IllegalStateError("cannot spawn '" + name + "': the actor system is terminating");
  }
  return ActorRef(core_->system_guardian()->spawn_child(std::move(factory), std::move(name),
                                                        std::move(options)));
}

ActorSelection ActorSystem::actor_selection(std::string path) {
  return ActorSelection(core_, std::move(path));
}

void ActorSystem::stop(const ActorRef& ref) {
  ref.stop();
}

std::optional<ActorRef> ActorSystem::resolve(std::string_view path) const {
  auto cell = core_->find(core_->local_path(path));
  if (!cell || cell->is_terminated()) return std::nullopt;
  return ActorRef(cell);
}

DevtoolsEndpoint* ActorSystem::devtools() const noexcept {
  return core_->devtools();
}

ActorRef ActorSystem::dead_letters() const {
  return core_->dead_letter_office();
}
DeadLetterQueue& ActorSystem::dead_letter_queue() {
  return core_->dead_letter_queue();
}
PayloadCodecRegistry& ActorSystem::payload_codecs() {
  return core_->payload_codecs();
}
EventStream& ActorSystem::event_stream() {
  return core_->events();
}
MetricsRegistry& ActorSystem::metrics() {
  return core_->metrics();
}
const Logger& ActorSystem::log() const {
  return core_->log();
}
CoordinatedShutdown& ActorSystem::coordinated_shutdown() {
  return core_->shutdown();
}
Dispatcher& ActorSystem::dispatcher() {
  return core_->dispatcher();
}
ReplayTarget& ActorSystem::replay_target() {
  return *core_;
}
const ActorSystemOptions& ActorSystem::options() const {
  return core_->options();
}
std::int64_t ActorSystem::now_ms() const {
  return core_->now_ms();
}

std::vector<ActorSnapshot> ActorSystem::inspect() const {
  // Depth-first, children by name: /system after /user's whole subtree. The
  // cells are collected first so the rows (~200 bytes each) are allocated once:
  // growing the row vector dominated the panel's 10 Hz poll with 10,000 actors.
  std::vector<std::shared_ptr<detail::ActorCell>> order;
  std::vector<std::shared_ptr<detail::ActorCell>> pending;
  if (core_->system_guardian()) pending.push_back(core_->system_guardian());
  if (core_->user_guardian()) pending.push_back(core_->user_guardian());
  while (!pending.empty()) {
    auto cell = std::move(pending.back());
    pending.pop_back();
    auto children = cell->children();
    for (auto it = children.rbegin(); it != children.rend(); ++it) pending.push_back(*it);
    if (!cell->is_guardian()) order.push_back(std::move(cell));
  }
  std::vector<ActorSnapshot> out;
  out.reserve(order.size());
  for (const auto& cell : order) out.push_back(cell->snapshot());
  return out;
}

void ActorSystem::publish_dead_letter(DeadLetter letter) {
  core_->publish_dead_letter(std::move(letter));
}

void ActorSystem::set_dead_letter_sink(std::shared_ptr<DeadLetterSink> sink) {
  core_->set_sink(std::move(sink));
}

void ActorSystem::terminate() {
  core_->terminate();
}
bool ActorSystem::is_terminated() const {
  return core_->terminated();
}
void ActorSystem::when_terminated(std::function<void()> callback) {
  core_->when_terminated(std::move(callback));
}

void ActorSystem::await_termination() {
  if (detail::in_actor_turn()) {
    throw IllegalStateError("await_termination() inside an actor would wait for itself");
  }
  core_->await_termination();
}

}  // namespace mailroom
