// One of the panel's inline SVG icons (see icons.ts). Decorative: the button
// around it names the action with its text, or with aria-label and title.
import { ICONS, ICON_SVG_ATTRS, pathAttrs, type IconName } from './icons';

export function Icon({ name }: { name: IconName }) {
  return (
    <svg class="mr-icon" data-icon={name} {...ICON_SVG_ATTRS}>
      {ICONS[name].map((p, i) => (
        <path key={i} {...pathAttrs(p)} />
      ))}
    </svg>
  );
}
