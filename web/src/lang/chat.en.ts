// English words of chat (issue 41; spread into lang/en.ts, so every key is checked in ru and
// tr too).

export const chatEn = {
  'chat.title': 'Chat',
  'chat.placeholder': 'Say something (140 characters at most)',
  'chat.send': 'Send',
  'chat.off': 'Chat off',
  'chat.off_note': 'Chat is off for all your games: you see and send no messages.',
  'chat.empty': 'No messages yet.',
  'chat.anonymous': 'Anonymous',
  'chat.report': 'Report this message',
  'chat.reported': 'Reported',
  'chat.report_confirm': "Report {name}'s message to the moderators as abuse?",
  'chat.too_long': '{n} characters: a message holds at most {max}.',
  'chat.room.players': 'Players',
  'chat.room.watchers': 'Watchers',
  'chat.room.tournament': 'Tournament',
  'chat.room.lobby': 'Lobby',
  'chat.phrase.good_luck': 'Good luck',
  'chat.phrase.have_fun': 'Have fun',
  'chat.phrase.well_played': 'Well played',
  'chat.phrase.thanks': 'Thanks',
  'chat.phrase.good_game': 'Good game',
  'error.muted': 'A moderator muted you: no chat for now.',
  'error.chat_off': 'Your chat is off: turn it on to write.',
  'error.chat_not_allowed': 'New accounts and guests can send the phrases only: writing comes 10 minutes after registering, with a finished game.',
  'chat.mute_opponent': 'Mute opponent',
};
