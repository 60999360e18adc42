export { exampleGoals } from './exampleGoals';
