export type { Channel, ChannelChoice, ChannelQuestion, IncomingMessage } from './channel';
export { ChannelServer, REFUSAL, type ChannelServerOptions, type GoalRunner } from './channelServer';
export { ChannelApprover } from './channelApprover';
export { StatusMessage } from './statusMessage';
export { progressLine } from './progressLines';
