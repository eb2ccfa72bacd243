// Entry point of the single page: the header, and the route -> page table. A page draws itself
// into `main` and sets the window's title; later pages (editor, lobby, profiles) add a line to
// `routes`.

import { currentUser, loadMe, loginHref } from './account';
import { h, mount, svgIcon } from './dom';
import { LANGS, lang, setLang, t, type Lang } from './i18n';
import { registerServiceWorker } from './install';
import { startPrefs } from './prefs';
import { linkHandler } from './nav';
import { bell } from './notify/bell';
import { startNotifications } from './notify/live';
import { offlineBadge, onlineOnly } from './online';
import { accountPage, loginPage } from './pages/account';
import { resetPage } from './pages/email';
import { analysisGamePage, analysisImportPage, analysisPage } from './pages/analysis';
import { editorPage } from './pages/editor';
import { homePage } from './pages/home';
import { leaderboardPage } from './pages/leaderboard';
import { gameSearchPage } from './pages/search';
import { tvPage } from './pages/tv';
import { profilePage } from './pages/profile';
import { followersPage, followingPage } from './pages/following';
import { modPage } from './pages/mod';
import { gamePage, joinPage } from './pages/game';
import { myGamesPage } from './pages/my';
import { notFoundPage } from './pages/notfound';
import { offlineGamePage, offlinePage } from './pages/offline';
import { rulesPage } from './pages/rules';
import { statsPage } from './pages/stats';
import { dashboardPage, trainingPage } from './pages/training';
import { tournamentsPage } from './pages/tournaments';
import { tournamentPage } from './pages/tournament';
import { playerSearch } from './social/player_search';
import { socialApi } from './social/api';

/** A page draws itself into `root` and may return a function that tears it down. */
export type Page = (root: HTMLElement, ...params: string[]) => void | (() => void);

// The pages that need the server show an offline notice while it cannot be reached (online.ts).
const login = onlineOnly(loginPage);
const accountPageOnline = onlineOnly(accountPage);
const followingOnline = onlineOnly(followingPage);
const modOnline = onlineOnly(modPage);

const routes: [RegExp, Page][] = [
  [/^\/$/, homePage],
  [/^\/games\/search$/, onlineOnly(gameSearchPage)],
  [/^\/tv(?:\/(antarctos|iceage))?$/, onlineOnly(tvPage)],
  [/^\/game\/([\w-]+)$/, gamePage],
  [/^\/join\/([\w-]+)$/, joinPage],
  [/^\/my$/, onlineOnly(myGamesPage)],
  [/^\/rules(?:\/(antarctos|iceage))?$/, rulesPage],
  [/^\/stats$/, onlineOnly(statsPage)],
  [/^\/analysis\/game\/([\w-]+)$/, analysisGamePage],
  [/^\/analysis\/import\/([\w-]+)$/, analysisImportPage],
  [/^\/analysis(?:\/(antarctos|iceage))?$/, analysisPage],
  [/^\/editor(?:\/(antarctos|iceage))?$/, editorPage],
  [/^\/offline$/, offlinePage],
  [/^\/offline\/(off-[0-9a-f]{12})$/, offlineGamePage],
  [/^\/login$/, login],
  [/^\/account$/, accountPageOnline],
  [/^\/reset$/, onlineOnly(resetPage)],
  [/^\/@\/([\w-]{1,40})$/, onlineOnly(profilePage)],
  [/^\/@\/([\w-]{1,40})\/followers$/, onlineOnly(followersPage)],
  [/^\/following$/, followingOnline],
  [/^\/mod$/, modOnline],
  [/^\/leaderboard(?:\/([\w-]+))?$/, onlineOnly(leaderboardPage)],
  [/^\/tournaments$/, onlineOnly(tournamentsPage)],
  [/^\/tournament\/([A-Za-z0-9]{8})$/, onlineOnly(tournamentPage)],
  [/^\/training\/dashboard$/, onlineOnly(dashboardPage)],
  [/^\/training(?:\/(antarctos|iceage)(?:\/([\w-]+))?)?$/, onlineOnly(trainingPage)],
];

let cleanup: void | (() => void);

const languageNames: Record<Lang, string> = { en: 'English', ru: 'Русский', tr: 'Türkçe' };

function header(): HTMLElement {
  const path = location.pathname;
  const link = (href: string, label: string) => {
    const active = path === href || (href !== '/' && path.startsWith(href));
    return h('a', { href, class: active ? 'active' : undefined, 'aria-current': active ? 'page' : undefined }, label);
  };
  const select = h(
    'select.lang',
    { 'aria-label': t('nav.language'), title: t('nav.language'), onchange: (e: Event) => { setLang((e.target as HTMLSelectElement).value as Lang); render(); } },
    ...LANGS.map(l => h('option', { value: l, selected: l === lang(), lang: l, title: languageNames[l] }, l.toUpperCase())),
  );
  return h('header.top',
    h('a.brand', { href: '/' }, h('span.logo', { 'aria-hidden': 'true' }, '❄'), ` ${t('site.name')}`),
    menuButton(),
    // The links a player reaches for every day stand in the header; the rest wait under
    // "More", so the header stays one row at 1280 px (it wrapped to two in issue 41, and the
    // home page's daily puzzle fell below the first screen). On a phone all are one list.
    h('nav#main-nav', { 'aria-label': t('nav.main') }, link('/', t('nav.play')), link('/training', t('puzzle.nav')), link('/tournaments', t('tour.nav')), link('/tv', t('tv.title')), link('/analysis', t('nav.analysis')), link('/my', t('nav.my')), link('/rules', t('nav.rules')),
      moreMenu(path, link('/leaderboard', t('rating.nav_leaderboard')), link('/stats', t('nav.stats')), link('/offline', t('nav.offline')),
        link('/games/search', t('search.title')),
        currentUser() ? link('/following', t('social.nav_following')) : null,
        modLink(link)),
      playerSearch()),
    account(link),
    bell(),
    offlineBadge(),
    select,
  );
}

/** The header's "More" list: a button that opens the less used links under it (a hover shows
 * them too), and closes on Escape, a click elsewhere or the focus leaving it. On a phone (style.css)
 * the button hides and the links join the menu's list. */
function moreMenu(path: string, ...links: (HTMLElement | null)[]): HTMLElement {
  const list = h('div.nav-more-list#nav-more-list', ...links.filter((l): l is HTMLElement => l !== null));
  const button = h('button.nav-more-toggle#nav-more', {
    type: 'button', 'aria-controls': 'nav-more-list', 'aria-expanded': 'false', 'aria-haspopup': 'true',
  }, t('nav.more'), h('span', { 'aria-hidden': 'true' }, ' ▾')) as HTMLButtonElement;
  const box = h('div.nav-more', button, list);
  const set = (open: boolean) => {
    box.classList.toggle('open', open);
    button.setAttribute('aria-expanded', String(open));
  };
  button.addEventListener('click', () => set(!box.classList.contains('open')));
  // A hover shows the list (style.css): the button says so as a click would (finding 18a).
  box.addEventListener('mouseenter', () => button.setAttribute('aria-expanded', 'true'));
  box.addEventListener('mouseleave', () => button.setAttribute('aria-expanded', String(box.classList.contains('open'))));
  box.addEventListener('keydown', (e: KeyboardEvent) => {
    if (e.key === 'Escape' && box.classList.contains('open')) { set(false); button.focus(); }
  });
  // Tabbing past the last link closes the list.
  box.addEventListener('focusout', (e: FocusEvent) => {
    if (!box.contains(e.relatedTarget as Node | null)) set(false);
  });
  // The page shown is one of the list's: the button is marked as the way to it.
  const here = ['/leaderboard', '/stats', '/offline', '/games/search', '/following', '/mod'].some(p => path.startsWith(p));
  if (here) button.classList.add('active');
  return box;
}

/** The phone's menu button (issue 41: at 390 px the links ran off the edge, "Leaderboard" out
 * of sight in a row that scrolled sideways with nothing to show it): it opens the links as a
 * list under the header, and closes it again. Hidden on wider screens (style.css). */
function menuButton(): HTMLElement {
  const button = h('button.menu-toggle#menu-toggle', {
    type: 'button', 'aria-controls': 'main-nav', 'aria-expanded': 'false',
  }, h('span', { 'aria-hidden': 'true' }, '☰'), ` ${t('nav.menu')}`) as HTMLButtonElement;
  button.addEventListener('click', () => {
    const top = button.closest('header');
    const open = !top?.classList.contains('menu-open');
    top?.classList.toggle('menu-open', open);
    button.setAttribute('aria-expanded', String(open));
  });
  return button;
}

/** The header's account link: log in, or the account's name. */
function account(link: (href: string, label: string) => HTMLElement): HTMLElement | null {
  const user = currentUser();
  if (user === undefined) return null;
  const a = user === null ? link(loginHref(), t('nav.login')) : link('/account', user);
  a.id = 'account-link';
  a.classList.add('account-link');
  if (user === null) return a;
  // A long name is cut on the screen: the whole of it shows on hover.
  a.title = user;
  // The player's own profile (issue 13), beside the account's name: a person's outline with its
  // words for screen readers and as a tooltip, so a long name and the menu share one row.
  const profile = link(`/@/${user}`, '');
  profile.append(personIcon(), h('span.sr-only', t('rating.nav_profile')));
  profile.title = t('rating.nav_profile');
  profile.id = 'profile-link';
  profile.classList.add('account-link', 'profile-link');
  return h('span.account-links', profile, ' ', a);
}

function personIcon(): SVGSVGElement {
  return svgIcon('M12 3a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9Zm0 11c-4.4 0-8 2.2-8 5v2h16v-2c0-2.8-3.6-5-8-5Z', 20);
}

let shownPath = '';

/** Whether the logged-in account moderates, asked once per account. */
let moderates: { user: string; yes: Promise<boolean> } | null = null;

/** The menu's link to `/mod`, shown to moderators once the server says so. */
function modLink(link: (href: string, label: string) => HTMLElement): HTMLElement | null {
  const user = currentUser();
  if (!user) return null;
  if (moderates?.user !== user) moderates = { user, yes: socialApi.me().then(m => m.moderator, () => false) };
  const slot = h('span.mod-link-slot');
  void moderates.yes.then(yes => { if (yes) slot.replaceWith(link('/mod', t('mod.title'))); });
  return slot;
}

function render(): void {
  shownPath = location.pathname + location.search;
  if (typeof cleanup === 'function') cleanup();
  cleanup = undefined;
  const app = document.getElementById('app')!;
  const main = h('main');
  const top = header();
  mount(app, top, main);
  const path = location.pathname.replace(/\/+$/, '') || '/';
  for (const [re, page] of routes) {
    const m = re.exec(path);
    if (m) {
      cleanup = page(main, ...m.slice(1).filter((x): x is string => x !== undefined));
      return;
    }
  }
  notFoundPage(main, path);
}

document.documentElement.lang = lang();
startPrefs();
document.addEventListener('click', linkHandler);
// A click outside the header's "More" list or its player search closes it (the search's text
// stays for the next opening: browser finding 1 of round 4, the two lists overlapped).
document.addEventListener('click', e => {
  for (const box of document.querySelectorAll('.nav-more.open, .player-search.open')) {
    if (box.contains(e.target as Node)) continue;
    box.classList.remove('open');
    box.querySelector('.nav-more-toggle, .player-search-open')?.setAttribute('aria-expanded', 'false');
  }
});
// Escape closes the phone's menu list too, as it closes "More" (browser finding 4 of round 4).
document.addEventListener('keydown', e => {
  if (e.key !== 'Escape' || e.defaultPrevented) return;
  const top = document.querySelector('header.top.menu-open');
  if (!top) return;
  top.classList.remove('menu-open');
  const toggle = top.querySelector<HTMLButtonElement>('#menu-toggle');
  toggle?.setAttribute('aria-expanded', 'false');
  toggle?.focus();
});
// A link within the page (`#a10`) changes only the fragment: the page stays, and scrolls.
window.addEventListener('popstate', () => {
  if (location.pathname + location.search !== shownPath) render();
});
window.addEventListener('icebound:navigate', render);
// The pages drawn from who is logged in; any other page keeps its state and only the header
// is drawn again when the server says who the player is.
const userPages: Page[] = [homePage, login, accountPageOnline];
/** Who the header last knew: a log-in that ends shows as a name becoming `null`. */
let shownUser: string | null | undefined;
window.addEventListener('icebound:me', () => {
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const page = routes.find(([re]) => re.test(path))?.[1];
  const top = document.querySelector('#app > header.top');
  // An account's own pages go with its log-in (browser finding 13 of round 4: /mod stayed
  // readable after a log-out in another tab).
  const ended = typeof shownUser === 'string' && currentUser() === null && !!page && [followingOnline, modOnline].includes(page);
  shownUser = currentUser();
  if (!top || ended || (page && userPages.includes(page))) render();
  else top.replaceWith(header());
});
// The account's preferences arrived after the page was drawn: the account page shows them.
window.addEventListener('icebound:prefs', () => {
  const path = location.pathname.replace(/\/+$/, '') || '/';
  if (routes.find(([re]) => re.test(path))?.[1] === accountPageOnline) render();
});
render();
void loadMe();
registerServiceWorker();
startNotifications();
