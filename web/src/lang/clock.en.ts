// English words of the clocks (spread into lang/en.ts, so every key is checked in ru and tr).

export const clockEn = {
  'clock.unlimited': 'Unlimited',
  'clock.days': '{n, plural, one {# day} other {# days}} per move',
  'clock.days_hours': '{d} d {h} h',
  'clock.hours_minutes': '{h} h {m} min',
  'clock.vacation': 'On vacation until {when}',
  'clock.deadline': 'Time runs out on {when}',
  'clock.realtime_title': 'Time left',
  'clock.stale_title': 'Not live: reconnecting, the time shown may be old',
  'clock.correspondence_title': 'Time per move',
  'clock.rated': 'Rated',
  'clock.casual': 'Casual',
  'clock.first_move': '{color} must move within {s} s',
  'clock.first_move_you': 'You must move within {s} s',
  'clock.first_move_title': 'The clocks start after each side\'s first move; a first move that does not come in time aborts the game',
  'notice.first_move_missed': '{color} did not make a first move in time: the game is aborted',
  'my.deadline': 'your time runs out {when}',
};
