export type { Channel, ChannelChoice, ChannelQuestion, IncomingMessage } from './channel';
export { ChannelServer, REFUSAL, type ChannelServerOptions, type ChannelGoalRunner } from './channelServer';
export { ChannelApprover } from './channelApprover';
export { StatusMessage } from './statusMessage';
export { progressLine } from './progressLines';
