// A puzzle theme in words: its name and a one-line explanation in the page's language. A theme
// the page does not know yet (a newer server) shows its own name.

import type { Variant } from '../api';
import { has, t } from '../i18n';

export function themeName(v: Variant, theme: string): string {
  const key = `ptheme.${v}.${theme}`;
  return has(key) ? t(key) : theme.replace(/_/g, ' ');
}

export function themeAbout(v: Variant, theme: string): string {
  const key = `ptheme.${v}.${theme}.about`;
  return has(key) ? t(key) : '';
}
