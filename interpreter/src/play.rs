//! A game in progress between people: the session (history, seeded chance,
//! undo; [`session`]) and what each player sees of it ([`view`]).

pub mod session;
pub mod view;
