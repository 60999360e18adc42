export { startDemoModelServer, type DemoModelServer } from './demoServer';
export { DEMO_MODEL_ID, nextDemoReply } from './demoScript';
