// Panel styles, injected next to the panel so it works in any host page.
// Colours are CSS variables per theme; the warning colour marks > 85% full.
import { columnCss } from './components/columns';

export const PANEL_CSS = `
.mr-root{--bg:#fff;--bg2:#f3f4f6;--fg:#1f2328;--muted:#5f6570;--line:#e5e7eb;--accent:#1d4ed8;--sel:#dbeafe;
--warn:#a34a06;--bad:#b91c1c;--good:#15803d;--bar:#60a5fa;--on-accent:#fff;--on-bad:#fff;--focus:#1d4ed8;
--json-key:#a626a4;--json-string:#2e7d32;--json-number:#8c5a00;--link:#1d4ed8;
font:12px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);
display:flex;flex-direction:column;height:100%;min-height:0;position:relative;outline:none;box-sizing:border-box}
.mr-root[data-theme=dark]{--bg:#1e1f22;--bg2:#2b2d31;--fg:#e6e6e6;--muted:#a8aeb5;--line:#3a3c42;--accent:#7aa7ff;
--sel:#24395e;--warn:#f59e0b;--bad:#fca5a5;--good:#4ade80;--bar:#3b82f6;--on-accent:#111827;--on-bad:#1e1f22;--focus:#9ec1ff;
--json-key:#d19aff;--json-string:#98c379;--json-number:#d19a66;--link:#8fb6ff}
.mr-root *{box-sizing:border-box}
.mr-root button{font:inherit;color:inherit}
.mr-root select,.mr-root input{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:2px 6px}
.mr-header{display:flex;align-items:center;justify-content:space-between;border-bottom:1px solid var(--line);background:var(--bg2);padding:0 6px;gap:8px;flex-wrap:wrap}
.mr-tabs{display:flex}
.mr-tabs button{background:none;border:none;border-bottom:2px solid transparent;padding:7px 12px;cursor:pointer}
.mr-tabs button.mr-on{border-bottom-color:var(--accent);color:var(--accent)}
.mr-count{margin-left:6px;background:var(--bad);color:var(--on-bad);border-radius:8px;padding:0 6px;font-size:11px}
.mr-header-tools{display:flex;gap:6px;align-items:center}
.mr-btn{background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:3px 8px;cursor:pointer}
.mr-btn:hover:not(:disabled){border-color:var(--accent)}
.mr-btn:disabled{opacity:.5;cursor:not-allowed}
.mr-root .mr-primary{background:var(--accent);border-color:var(--accent);color:var(--on-accent)}
.mr-root .mr-primary:disabled{background:var(--bg2);border-color:var(--line);color:var(--muted);opacity:1}
.mr-root .mr-link{background:none;border:none;color:var(--link);cursor:pointer;padding:0 3px;text-decoration:underline;text-underline-offset:2px;text-decoration-thickness:1px}
.mr-root .mr-link:hover{text-decoration-thickness:2px}
.mr-root .mr-link:has(>.mr-icon:only-child){text-decoration:none}
.mr-root :focus-visible{outline:2px solid var(--focus);outline-offset:-2px}
.mr-root:focus-visible{outline-offset:-3px}
.mr-row:focus-visible{outline-offset:-2px}
.mr-held{color:var(--muted);display:inline-block;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-weight:600}.mr-held.mr-on{color:var(--warn)}
.mr-held-dl{width:3.2em}.mr-held-mb{width:6.5em}
.mr-root .mr-slot-idle{visibility:hidden}
.mr-grid-area{flex:1;min-height:0;display:flex;flex-direction:column;position:relative}
.mr-pill{position:absolute;left:50%;top:6px;transform:translateX(-50%);z-index:4;background:var(--accent);color:var(--on-accent);border:none;border-radius:12px;padding:2px 12px;cursor:pointer;font-weight:600;box-shadow:0 2px 6px rgba(0,0,0,.25)}
.mr-grid-body{flex:1;min-height:0;display:flex;flex-direction:column}
.mr-replay-off{margin:0 0 8px;color:var(--warn)}
.mr-dialog-messages{min-height:1.4em}
.mr-icon{flex:none;display:block}
.mr-root button:has(>.mr-icon){display:inline-flex;align-items:center;gap:4px}
.mr-main{flex:1;min-height:0;display:flex;flex-direction:column}
.mr-view{flex:1;min-height:0;display:flex;flex-direction:column}
.mr-toolbar{display:flex;gap:8px;align-items:center;padding:6px;border-bottom:1px solid var(--line);flex-wrap:wrap;position:relative}
.mr-filter{flex:1;min-width:180px;max-width:520px}
.mr-filter-errors{position:absolute;left:6px;top:calc(100% - 3px);z-index:3;max-width:520px;color:var(--bad);background:var(--bg);border:1px solid var(--bad);border-radius:4px;padding:2px 8px;box-shadow:0 2px 6px rgba(0,0,0,.15)}
.mr-seg{display:inline-flex;border:1px solid var(--line);border-radius:4px;overflow:hidden}
.mr-seg button{background:var(--bg);border:none;border-right:1px solid var(--line);padding:2px 8px;cursor:pointer}
.mr-seg button:last-child{border-right:none}
.mr-seg button.mr-on{background:var(--sel);color:var(--accent)}
.mr-head{background:var(--bg2);border-bottom:1px solid var(--line);font-weight:600}
.mr-head .mr-sort{background:none;border:none;text-align:left;cursor:pointer;font-weight:600;padding:0;width:100%;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.mr-root .mr-head .mr-sort.mr-on{color:var(--accent)}
.mr-root .mr-head .mr-sort.mr-stale{color:var(--warn)}
${columnCss()}
.mr-causes{display:inline-flex;gap:4px;flex-wrap:wrap}
.mr-chip{border:1px solid var(--line);background:var(--bg);border-radius:10px;padding:0 8px;cursor:pointer;font-size:11px}
.mr-root .mr-chip.mr-on{border-color:var(--accent);background:var(--sel);color:var(--fg)}
.mr-cause-dropped,.mr-cause-unhandled{color:var(--warn)}
.mr-cell{padding:0 6px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.mr-row{height:26px;border-bottom:1px solid var(--line);cursor:default;contain:strict}
.mr-row:hover{background:var(--bg2)}
.mr-row.mr-selected{background:var(--sel)}
.mr-vlist{flex:1;min-height:0;overflow:auto;contain:strict}
.mr-num{text-align:right;font-variant-numeric:tabular-nums}
.mr-muted{color:var(--muted)}
.mr-path{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:11.5px}
.mr-kind{border-radius:3px;padding:0 5px;background:var(--bg2);border:1px solid var(--line)}
.mr-kind-bounded{border-color:var(--bar)}.mr-kind-priority{border-color:var(--warn)}
.mr-depth{display:flex;align-items:center;gap:5px}
.mr-bar{display:inline-block;width:60px;height:8px;background:var(--bg2);border:1px solid var(--line);border-radius:2px;overflow:hidden}
.mr-bar-fill{display:block;height:100%;background:var(--bar)}
.mr-warn .mr-bar-fill{background:var(--warn)}.mr-warn .mr-depth-num{color:var(--warn);font-weight:600}
.mr-delta{color:var(--bad);font-weight:600}
.mr-up{color:var(--warn)}
.mr-spark{color:var(--accent);display:block}
.mr-badge{border-radius:8px;padding:0 6px;font-size:11px;background:var(--bg2);border:1px solid var(--line);margin-right:4px}
.mr-badge-warn{color:var(--warn);border-color:var(--warn)}
.mr-badge-bad{color:var(--bad);border-color:var(--bad)}
.mr-empty{padding:24px;color:var(--muted);text-align:center}
.mr-empty-state{text-align:left;max-width:640px;margin:0 auto;color:var(--fg)}
.mr-code{background:var(--bg2);border:1px solid var(--line);padding:8px;border-radius:4px;overflow:auto;font-size:11.5px}
.mr-summary{display:flex;gap:6px;align-items:center;padding:4px 8px;border-bottom:1px solid var(--line);flex-wrap:wrap}
.mr-histo{display:flex;align-items:flex-end;gap:1px;height:22px;margin-left:auto;cursor:crosshair;user-select:none}
.mr-histo-bar{width:6px;height:100%;display:flex;align-items:flex-end;background:var(--bg2)}
.mr-histo-bar span{display:block;width:100%;background:var(--muted)}
.mr-histo-bar.mr-on span{background:var(--accent)}
.mr-split{flex:1;min-height:0;display:flex;position:relative;container:mr-split/inline-size}
.mr-split-main{flex:1;min-width:0;display:flex;flex-direction:column;container-type:inline-size;position:relative}
.mr-mb-scroll{flex:1;min-height:0;overflow-x:auto;overflow-y:hidden;display:flex;flex-direction:column}
.mr-mb-scroll>*{min-width:1080px}
.mr-detail{width:44%;min-width:280px;border-left:1px solid var(--line);overflow:auto;padding:8px 10px;background:var(--bg)}
@container mr-split (max-width: 900px){.mr-detail{position:absolute;top:0;right:0;bottom:0;z-index:5;width:min(100%,460px);min-width:0;box-shadow:-4px 0 14px rgba(0,0,0,.22)}}
.mr-detail-head{display:flex;justify-content:space-between;align-items:center}
.mr-meta{display:grid;grid-template-columns:80px 1fr;gap:2px 8px;margin:8px 0}
.mr-meta dt{color:var(--muted)}.mr-meta dd{margin:0;overflow-wrap:anywhere}
.mr-actions{display:flex;gap:6px;flex-wrap:wrap;margin:8px 0}
.mr-attempts ol{margin:4px 0;padding-left:20px}
.mr-outcome{font-weight:600}.mr-outcome-replayed,.mr-outcome-removed,.mr-outcome-released{color:var(--good)}
.mr-root .mr-danger{background:var(--bad);border-color:var(--bad);color:var(--on-bad)}
.mr-root .mr-danger:disabled{background:var(--bg2);border-color:var(--line);color:var(--muted);opacity:1}
.mr-bulk-bar{display:flex;gap:8px;align-items:center;padding:4px 8px;border-bottom:1px solid var(--line);background:var(--sel);flex-wrap:wrap}
.mr-bulk-table{border-collapse:collapse;margin:6px 0}.mr-bulk-table td{padding:2px 8px 2px 0;vertical-align:top}
.mr-id{display:flex;align-items:center;gap:4px}.mr-check{margin:0;cursor:pointer}
.mr-row.mr-checked{box-shadow:inset 3px 0 0 var(--accent)}
.mr-depth-chart{margin:4px 0;color:var(--accent)}.mr-depth-chart figcaption{font-size:11px}.mr-chart-cap{stroke:var(--bad)}
.mr-mb-letters{margin:4px 0;padding-left:18px}
.mr-json-pick{background:none;border:none;padding:0;font:inherit;cursor:pointer}
.mr-json-find{width:160px;margin-left:8px}.mr-json-crumbs{font-size:11px;margin:2px 0 4px;word-break:break-all}
.mr-json-match>.mr-json-pick,.mr-json-match>.mr-json-string,.mr-json-match>span{background:var(--sel)}
.mr-json-current{outline:2px solid var(--focus);outline-offset:-1px}.mr-json-selected>.mr-json-pick{text-decoration:underline}
.mr-group-count{display:inline-block;min-width:22px;margin-right:4px;padding:0 4px;border:1px solid var(--line);border-radius:8px;font-size:11px;text-align:center}
.mr-outcome-quarantined,.mr-outcome-rejected,.mr-outcome-control-message,.mr-outcome-error,.mr-outcome-unresolved-recipient,.mr-outcome-degraded-payload,.mr-outcome-unknown-entry{color:var(--bad)}
.mr-degraded{border:1px dashed var(--warn);padding:6px 8px;border-radius:4px}
.mr-json{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:11.5px;overflow-wrap:anywhere;white-space:pre-wrap}
.mr-json-node{padding-left:0}
.mr-json-tools{display:flex;gap:8px;margin-bottom:4px;font-family:system-ui,sans-serif}
.mr-json-children{padding-left:14px;border-left:1px dotted var(--line);margin-left:5px}
.mr-json-toggle{background:none;border:none;cursor:pointer;padding:0 2px;width:16px;color:var(--muted)}
.mr-json-range .mr-json-toggle{width:auto}
.mr-json-toggle-spacer{display:inline-block;width:16px}
.mr-json-key{color:var(--json-key)}
.mr-json-string{color:var(--json-string)}
.mr-json-number,.mr-json-bigint{color:var(--json-number)}
.mr-json-summary{color:var(--muted)}
.mr-json-circular{color:var(--warn)}
.mr-json-actions{visibility:hidden;margin-left:6px}
.mr-json-node:hover>.mr-json-actions,.mr-json-node:focus-within>.mr-json-actions{visibility:visible}
.mr-banner{padding:4px 8px;background:var(--sel);border-bottom:1px solid var(--line);display:flex;gap:8px;align-items:center}
.mr-banner-bad{background:transparent;color:var(--bad)}
.mr-toast{position:absolute;left:50%;bottom:24px;transform:translateX(-50%);z-index:20;max-width:min(90%,640px);background:var(--fg);color:var(--bg);border-radius:6px;padding:4px 6px 4px 12px;display:flex;gap:8px;align-items:center;box-shadow:0 4px 14px rgba(0,0,0,.3)}
.mr-root .mr-toast .mr-link{color:var(--bg)}
.mr-error{color:var(--bad)}.mr-warning{color:var(--warn)}
.mr-modal{position:absolute;inset:0;background:rgba(0,0,0,.35);display:flex;align-items:center;justify-content:center;z-index:10}
.mr-modal-box{background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:12px 16px;min-width:360px;max-width:90%}
.mr-field{display:flex;flex-direction:column;gap:4px}
.mr-field .mr-filter{max-width:none}
.mr-columns{position:relative}
.mr-columns>summary{list-style:none;cursor:pointer}
.mr-columns>summary::-webkit-details-marker{display:none}
.mr-columns-menu{position:absolute;right:0;top:100%;z-index:6;margin:2px 0 0;padding:6px 10px;min-width:160px;background:var(--bg);color:var(--fg);border:1px solid var(--line);border-radius:4px;box-shadow:0 4px 12px rgba(0,0,0,.2);display:flex;flex-direction:column;gap:2px}
.mr-columns-menu label{display:flex;gap:6px;align-items:center;white-space:nowrap}
.mr-combo{position:relative;display:flex}
.mr-combo>.mr-filter{flex:1}
.mr-combo-list{position:absolute;top:100%;left:0;right:0;z-index:3;margin:2px 0 0;padding:2px 0;list-style:none;max-height:180px;overflow:auto;background:var(--bg);color:var(--fg);border:1px solid var(--line);border-radius:4px;box-shadow:0 4px 12px rgba(0,0,0,.2)}
.mr-combo-list>li{padding:3px 8px;cursor:pointer;font-family:ui-monospace,monospace;font-size:12px}
.mr-combo-list>li.mr-on,.mr-combo-list>li:hover{background:var(--sel)}
.mr-cost{position:absolute;right:6px;bottom:4px;font-size:10.5px;color:var(--muted);background:var(--bg);padding:0 4px;border-radius:3px;pointer-events:none;opacity:.85}
.mr-metrics{overflow:auto;padding:8px;gap:8px}
.mr-metrics-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:8px}
.mr-card{border:1px solid var(--line);border-radius:6px;padding:8px 10px}
.mr-card h3{margin:0 0 6px;font-size:13px}
.mr-chart{margin:0}.mr-chart-line{stroke:var(--accent);stroke-width:1.5}.mr-chart-area{fill:var(--sel);stroke:none}
.mr-table{width:100%;border-collapse:collapse}
.mr-table th,.mr-table td{border-bottom:1px solid var(--line);padding:2px 6px;text-align:left}
.mr-bars{border-collapse:collapse}.mr-bars th{text-align:left;padding-right:8px;font-weight:500}
.mr-bar-cell .mr-bar{width:160px}
`;
