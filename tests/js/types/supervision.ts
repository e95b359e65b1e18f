// The seed framework's supervision, async preStart and deadLetters shapes
// against the declarations (type-checked only).
import {
  Actor, ActorInitializationError, ActorOptions, ActorSystem, DeadLetter, Directive, OneForOneStrategy,
  decideBy, stoppingStrategy, type SupervisorStrategy,
} from 'mailroom';

class FooError extends Error {}

class Child extends Actor<string> {
  private config = '';
  override async preStart(): Promise<void> {
    this.config = await Promise.resolve('loaded');
  }
  override onReceive(message: string): void {
    if (message === 'boom') throw new FooError(this.config);
  }
}

class Parent extends Actor<string> {
  override preStart(): void {
    this.context.spawn(Child, 'child');
    this.context.spawn(Child, 'fragile', ActorOptions.create<string>().withSupervisorStrategy(stoppingStrategy));
  }
  override supervisorStrategy(): SupervisorStrategy {
    return new OneForOneStrategy((error) => {
      if (error instanceof ActorInitializationError) return Directive.Stop;
      return decideBy([{ match: FooError, then: Directive.Resume }], Directive.Restart)(error);
    }, { maxRetries: 3, withinTimeRangeMs: 60_000 });
  }
  override onReceive(message: string): void {
    this.system.deadLetters.tell(message, this.self);
    this.system.deadLetters.tell(new DeadLetter(message, null, this.self));
  }
}

export async function supervised(): Promise<void> {
  const system = ActorSystem.create('supervised');
  system.spawn(Parent, 'parent').tell('hello');
  const office: string = system.deadLetters.path;
  console.log(office);
  await system.terminate();
}
