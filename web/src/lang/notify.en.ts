// English words of the notifications (the bell, its list and the challenge pop-up; spread into
// lang/en.ts, so every key is checked in ru and tr too).

export const notifyEn = {
  'notify.bell': 'Notifications',
  'notify.bell_unread': '{n, plural, one {Notifications: # unread} other {Notifications: # unread}}',
  'notify.none': 'No notifications yet.',
  'notify.your_move': '{name} moved: your move',
  'notify.low_time': 'Your time is running out against {name}',
  'notify.game_over': 'Your game against {name} is over',
  'notify.challenge': '{name} challenges you',
  'notify.challenge_accepted': '{name} accepted your challenge',
  'notify.seek_accepted': '{name} accepted your seek',
  'notify.popup_title': 'A challenge',
  'notify.accept': 'Accept',
  'notify.decline': 'Decline',
  'notify.close': 'Close',
  'notify.push_offer': 'Get a notification on this device when it is your move, even with the site closed?',
  'notify.push_on': 'Turn on',
  'notify.push_later': 'Not now',
  'notify.push_denied': 'This browser does not allow notifications for the site.',
  'notify.push_device': 'Notifications on this device',
  'notify.push_off': 'Turn off on this device',
};
