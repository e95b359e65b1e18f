// The panel's icons as SVG path data on a 16×16 grid, drawn in currentColor.
// Inline SVG instead of emoji or symbol characters: those render as empty
// boxes where no font has the glyph. Shared with the demo page's drawer.

/** One path: its `d`, drawn as a 1.5 px line or filled. */
export type IconPath = readonly [d: string, paint: 'line' | 'fill'];

export const ICONS = {
  'dock-bottom': [['M2.5 3.5h11v9h-11z', 'line'], ['M2.5 9h11v3.5h-11z', 'fill']],
  'dock-right': [['M2.5 3.5h11v9h-11z', 'line'], ['M9 3.5h4.5v9H9z', 'fill']],
  'full-page': [['M2.5 6V2.5H6M10 2.5h3.5V6M13.5 10v3.5H10M6 13.5H2.5V10', 'line']],
  hide: [['M4 6l4 4 4-4', 'line']],
  show: [['M4 10l4-4 4 4', 'line']],
  pause: [['M4.5 3H7v10H4.5zM9 3h2.5v10H9z', 'fill']],
  resume: [['M5 2.8 13 8l-8 5.2z', 'fill']],
  'theme-auto': [['M8 2.5a5.5 5.5 0 1 1 0 11 5.5 5.5 0 0 1 0-11z', 'line'], ['M8 2.5v11a5.5 5.5 0 0 1 0-11z', 'fill']],
  'theme-dark': [['M6.5 2.3a6 6 0 1 0 7.2 7.9A5 5 0 0 1 6.5 2.3z', 'fill']],
  'theme-light': [
    ['M8 5.2a2.8 2.8 0 1 1 0 5.6 2.8 2.8 0 0 1 0-5.6z', 'fill'],
    ['M8 1v1.6M8 13.4V15M1 8h1.6M13.4 8H15M3 3l1.1 1.1M11.9 11.9 13 13M3 13l1.1-1.1M11.9 4.1 13 3', 'line'],
  ],
  export: [['M8 2.5v7.5M5 7l3 3 3-3M2.5 11v2.5h11V11', 'line']],
  import: [['M8 10.5V3M5 5.5l3-3 3 3M2.5 11v2.5h11V11', 'line']],
  envelope: [['M2 4h12v8H2zM2.5 4.5 8 9l5.5-4.5', 'line']],
  close: [['M4 4l8 8M12 4l-8 8', 'line']],
} as const satisfies Record<string, readonly IconPath[]>;

export type IconName = keyof typeof ICONS;

/** Attributes of every icon's root <svg> (decorative: the button carries the label). */
export const ICON_SVG_ATTRS = {
  viewBox: '0 0 16 16',
  width: '14',
  height: '14',
  'aria-hidden': 'true',
  focusable: 'false',
} as const;

export function pathAttrs([d, paint]: IconPath): Record<string, string> {
  return paint === 'fill'
    ? { d, fill: 'currentColor', stroke: 'none' }
    : { d, fill: 'none', stroke: 'currentColor', 'stroke-width': '1.5', 'stroke-linecap': 'round', 'stroke-linejoin': 'round' };
}
