import { mount } from 'svelte';
import App from './ui/App.svelte';
import './ui/app.css';

const target = document.getElementById('app');
if (!target) throw new Error('ibd-reader: #app element missing from index.html');

export default mount(App, { target });
