// English words of the offline app (issue 42): what the online-only parts say while the server
// cannot be reached (spread into lang/en.ts, so every key is checked in ru and tr too).

export const offlineEn = {
  'offline.badge': 'Offline',
  'offline.title': 'Offline',
  'offline.page': 'This part of the site needs the server, which cannot be reached now. It comes back by itself when the connection does.',
  'offline.lobby': 'Offline: the lobby, seeks and challenges need the server, which cannot be reached now. They come back by themselves when the connection does.',
  // A game played offline and uploaded: the server cannot check the computer's level.
  'offline.unverified': 'offline, unverified',
  'offline.still_works': 'Without the server you can still use:',
};
