// Swagger UI served by the app itself (no CDN: school networks may have none, and the CSP allows only 'self').
window.SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#api-reference',
  deepLinking: true,
  tryItOutEnabled: false,
  withCredentials: true,
});
