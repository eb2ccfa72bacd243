// Home: pick a game, an opponent (engine level / friend by link / same screen) and a side.

import { api, errorText, type NewGame, type Variant } from '../api';
import { h, mount } from '../dom';
import { t } from '../i18n';
import { navigate } from '../nav';

function radios<T extends string>(name: string, options: [T, string][], selected: T, onchange: (v: T) => void): HTMLElement {
  return h('div.choices', { role: 'radiogroup' },
    ...options.map(([value, label]) =>
      h('label.choice',
        h('input', { type: 'radio', name, value, checked: value === selected, onchange: () => onchange(value) }),
        h('span', label),
      )),
  );
}

export function homePage(root: HTMLElement): void {
  const form: NewGame = { variant: 'antarctos', opponent: 'engine', level: 3, color: 'white' };
  const error = h('p.error', { role: 'alert' });
  const levelRow = h('div.row');
  const fenInput = h('input#fen', { type: 'text', placeholder: t('home.fen_hint'), spellcheck: 'false', autocomplete: 'off' }) as HTMLInputElement;

  const levelSelect = h('select#level', { onchange: (e: Event) => { form.level = Number((e.target as HTMLSelectElement).value); } },
    ...[1, 2, 3, 4, 5, 6, 7, 8].map(n => h('option', { value: n, selected: n === form.level }, String(n))));
  mount(levelRow, h('label', { for: 'level' }, t('home.level')), levelSelect);

  const sideRow = h('div.row',
    h('span.label', t('home.side')),
    radios('color', [['white', t('color.white')], ['black', t('color.black')], ['random', t('color.random')]], 'white', v => { form.color = v; }),
  );

  const syncVisibility = () => {
    levelRow.hidden = form.opponent !== 'engine';
    sideRow.hidden = form.opponent === 'local';
  };

  const gameCard = (v: Variant, blurb: string) =>
    h('label.game-card', { class: `variant-${v}` },
      h('input', { type: 'radio', name: 'variant', value: v, checked: v === form.variant, onchange: () => { form.variant = v; } }),
      h('span.game-title', t(`game.${v}` as 'game.antarctos')),
      h('span.game-blurb', blurb),
    );

  const submit = h('button.primary#start', { type: 'submit' }, t('home.start')) as HTMLButtonElement;
  const onSubmit = async (e: Event) => {
    e.preventDefault();
    error.textContent = '';
    submit.disabled = true;
    const body: NewGame = { variant: form.variant, opponent: form.opponent, color: form.color };
    if (form.opponent === 'engine') body.level = form.level;
    if (form.opponent === 'local') body.color = 'white';
    const fen = fenInput.value.trim();
    if (fen) body.fen = fen;
    try {
      const game = await api.createGame(body);
      navigate(`/game/${game.id}`);
    } catch (err) {
      error.textContent = errorText(err);
      submit.disabled = false;
    }
  };

  mount(root,
    h('section.card.home',
      h('h1', t('home.title')),
      h('form#new-game', { onsubmit: onSubmit },
        h('fieldset',
          h('legend', t('home.game')),
          h('div.game-cards', gameCard('antarctos', t('home.antarctos_blurb')), gameCard('iceage', t('home.iceage_blurb'))),
        ),
        h('fieldset',
          h('legend', t('home.opponent')),
          radios('opponent', [['engine', t('home.engine')], ['friend', t('home.friend')], ['local', t('home.local')]], form.opponent, v => {
            form.opponent = v;
            syncVisibility();
          }),
          levelRow,
        ),
        sideRow,
        h('details',
          h('summary', t('home.fen')),
          fenInput,
        ),
        h('div.actions', submit),
        error,
      ),
    ),
  );
  syncVisibility();
}
