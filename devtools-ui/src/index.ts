// Public entry of the DevTools panel.
export { mountDevtools, type DevtoolsHandle, type MountOptions } from './mount';
export { createStore, type PanelStore, type ReplayPreview } from './store';
export { applyEvent, type InboundEvent } from './store/reducer';
export type { Intent, OutboundIntent } from './store/intents';
export { createSystemSource, type Sample, type SystemSource } from './source/systemSource';
export { createProtocolSource, isProtocolSource, type ProtocolSource, type StreamLetter, type StreamSummary, type Welcome } from './source/protocolSource';
export { webSocketTransport } from './transport/webSocket';
export { loopbackTransport, type LoopbackSession } from './transport/loopback';
export type { Transport, TransportStatus } from './transport/transport';
export { parseFilter, matchesFilter } from './store/filterQuery';
export { parsePrometheus } from './store/prometheus';
export { parseExport, buildExport, ImportError, type ExportFile } from './store/exportFile';
export type * from './types';
